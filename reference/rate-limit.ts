/**
 * Fixed windows aligned to multiples of the window length: every key (and every IP address
 * without a key) gets `ceiling` requests per window.
 */
export interface WindowState {
  limit: number;
  remaining: number;
  resetAtMs: number;
  exceeded: boolean;
}

export class RateLimiter {
  readonly #counts = new Map<string, { window: number; used: number }>();
  constructor(
    readonly windowMs: number,
    /** The server's clock (a variant may set it apart from the machine's). */
    public now: () => number = Date.now,
  ) {}

  /** Forgets what `bucket` spent in its current window (it starts afresh). */
  forget(bucket: string): void {
    this.#counts.delete(bucket);
  }

  /** Counts one request of `bucket` and says where it stands. */
  hit(bucket: string, ceiling: number): WindowState {
    const now = this.now();
    const window = Math.floor(now / this.windowMs);
    let entry = this.#counts.get(bucket);
    if (!entry || entry.window !== window) {
      entry = { window, used: 0 };
      this.#counts.set(bucket, entry);
    }
    const resetAtMs = (window + 1) * this.windowMs;
    if (entry.used >= ceiling) return { limit: ceiling, remaining: 0, resetAtMs, exceeded: true };
    entry.used++;
    return { limit: ceiling, remaining: ceiling - entry.used, resetAtMs, exceeded: false };
  }
}
