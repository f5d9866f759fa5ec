/** The longest wait the client accepts from a Retry-After before falling back to back-off. */
const MAX_RETRY_AFTER_S = 120;

/**
 * How long to wait before retrying an unplanned 429: the target's Retry-After when it is a
 * plausible number of seconds, else exponential back-off from one second (API document, Limits).
 */
export function retryDelayMs(retryAfter: string | undefined, attempt: number): number {
  const seconds = Number(retryAfter);
  if (retryAfter !== undefined && Number.isFinite(seconds) && seconds >= 0 && seconds <= MAX_RETRY_AFTER_S) {
    return Math.ceil(seconds * 1000) + 50;
  }
  return 1000 * 2 ** attempt;
}
