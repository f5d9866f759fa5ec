import { defineVariant } from '../../variant.js';
/*
 * Where this happens in the field: the per-key limit is counted at a Kong Gateway in front of the
 * service, with the `rate-limiting` plugin (`minute: 100`, `limit_by: credential`,
 * `hide_client_headers: false`, the default) and the team's custom response so that the 429 keeps
 * the document's body and X-RateLimit-* trio. With `hide_client_headers` left at its default, Kong
 * sends its own header set on every response it limits, besides anything the service or a
 * response-transformer adds: `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (the
 * draft-polli-ratelimit-headers fields, Reset being the SECONDS UNTIL the window ends, equal to
 * Retry-After on a 429) and `X-RateLimit-Limit-<Period>` / `X-RateLimit-Remaining-<Period>` for the
 * configured period (`-Minute` for a 60 s window). Teams keep them because SDKs and Kong's own
 * tooling read them; express-rate-limit with `standardHeaders` and `legacyHeaders` both on emits
 * the same pair of families. Here every value is read off the service's own window, so the two
 * families always agree.
 *
 * Why it is conformant:
 * - Limits: X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (a Unix time) and, on a
 *   429 only, Retry-After are sent exactly as before, with the same values; nothing is removed or
 *   renamed. The added fields have other names: `RateLimit-Reset` is not `X-RateLimit-Reset`, and
 *   `X-RateLimit-Limit-Minute` is not `X-RateLimit-Limit` (field names are compared whole, RFC 9110
 *   5.1). The document says which headers carry what; it does not forbid other fields, and HTTP lets
 *   a response carry extension fields (RFC 9110 5.1, 6.3).
 * - The added values are consistent with the documented ones: RateLimit-Limit equals
 *   X-RateLimit-Limit, RateLimit-Remaining equals X-RateLimit-Remaining, RateLimit-Reset is the
 *   number of seconds from the server's clock to X-RateLimit-Reset (Retry-After's value on a 429).
 *   The `-<Period>` pair is sent only when the window is one of Kong's periods (1 s, a minute, an
 *   hour, a day, 30 days, 365 days), so its name never lies about the window.
 * - Retry-After is still sent on 429 responses only; no header is added where the service sent no
 *   rate-limit headers.
 */

/** Kong's period names by window length in seconds (`human_window_size_lookup`). */
const KONG_PERIODS: Readonly<Record<number, string>> = {
  1: 'Second',
  60: 'Minute',
  3600: 'Hour',
  86400: 'Day',
  2592000: 'Month',
  31536000: 'Year',
};

/** A header the service set, as a non-negative integer; null when absent or not one. */
function integerHeader(value: number | string | string[] | undefined): number | null {
  if (value === undefined) return null;
  const text = String(Array.isArray(value) ? value[0] : value).trim();
  return /^[0-9]+$/.test(text) ? Number(text) : null;
}

export default defineVariant({
  description:
    "the gateway's rate-limiting layer also sends Kong's header set: RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset (seconds until the window ends) and X-RateLimit-Limit-Minute / X-RateLimit-Remaining-Minute, beside the documented X-RateLimit-* headers",
  openPoint: 'http-transport',
  atRisk: ['RATE-1', 'RATE-2', 'RATE-3', 'RATE-4', 'RATE-8', 'RATE-9'],
  modify: (reference) => {
    const windowSeconds = reference.state.limiter.windowMs / 1000;
    const period = KONG_PERIODS[windowSeconds];
    reference.app.addHook('onSend', async (_req, reply, payload) => {
      const limit = integerHeader(reply.getHeader('x-ratelimit-limit'));
      const remaining = integerHeader(reply.getHeader('x-ratelimit-remaining'));
      const reset = integerHeader(reply.getHeader('x-ratelimit-reset'));
      if (limit === null || remaining === null || reset === null) return payload;
      // Kong's RateLimit-Reset is Retry-After's value on a 429; otherwise the seconds left, on the server's clock.
      const retryAfter = reply.statusCode === 429 ? integerHeader(reply.getHeader('retry-after')) : null;
      const resetIn = retryAfter ?? Math.max(0, Math.ceil(reset - reference.state.now() / 1000));
      reply.header('ratelimit-limit', String(limit));
      reply.header('ratelimit-remaining', String(remaining));
      reply.header('ratelimit-reset', String(resetIn));
      if (period !== undefined) {
        reply.header(`x-ratelimit-limit-${period.toLowerCase()}`, String(limit));
        reply.header(`x-ratelimit-remaining-${period.toLowerCase()}`, String(remaining));
      }
      return payload;
    });
  },
});
