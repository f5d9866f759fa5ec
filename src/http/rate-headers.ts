/**
 * The rate-limit headers of a response (`X-RateLimit-Limit`, `-Remaining`, `-Reset`, and
 * `Retry-After` on a 429), read once for the pacer, the key pool, the run-wide judges and the
 * suites. Its own module, so that a judge reading them does not load the pacer.
 */

export interface RateHeaders {
  readonly limit: number | null;
  readonly remaining: number | null;
  readonly reset: number | null;
  readonly retryAfter: number | null;
}

/** Seconds of clock skew allowed between the suite and the target when judging X-RateLimit-Reset. */
export const RESET_SKEW_SECONDS = 5;

/** Reads the rate-limit headers as integers; anything else is null. */
export function rateHeaders(headers: Readonly<Record<string, string>>): RateHeaders {
  return {
    limit: integer(headers['x-ratelimit-limit']),
    remaining: integer(headers['x-ratelimit-remaining']),
    reset: integer(headers['x-ratelimit-reset']),
    retryAfter: integer(headers['retry-after']),
  };
}

function integer(value: string | undefined): number | null {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return null;
  return Number(value);
}
