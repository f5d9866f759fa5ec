import { pageWindow, parsePageParam, type PageWindow, type ParamResult } from './pagination.js';

/**
 * The reference's algorithms that a mutant may swap for a faulty one. Each member is the
 * faithful implementation; a mutant replaces one (see `mutants/`). Surface faults (a wrong
 * status, a missing header) are better made with Fastify hooks on `ReferenceApp.app`.
 */
export interface Behaviour {
  /** Reads a page or limit query value. */
  parsePageParam(raw: unknown, name: 'page' | 'limit'): ParamResult;
  /** Which items a page holds and whether more follow. */
  pageWindow(total: number, page: bigint, limit: bigint): PageWindow;
  /** The total_count of a list response. */
  totalCount(total: number, pageItems: number): number;
  /** The X-RateLimit-Reset value sent for a window ending at `resetAtMs`. */
  resetHeader(resetAtMs: number, nowMs: number): number;
  /** The Retry-After (and the wait the 429 message states) for a window ending at `resetAtMs`. */
  retryAfterSeconds(resetAtMs: number, nowMs: number): number;
  /**
   * The limiter bucket a key's request to `path` (no query) counts against: the key itself, for
   * all authenticated requests whatever the path (API document, Limits).
   */
  rateBucket(key: { readonly id: string; readonly accountId: string }, path: string): string;
  /** Seconds a revoked key keeps working (a cache, in a faulty server). */
  revokedGraceMs: number;
  /**
   * The order a list serves its `total` items in, as indices; null: the collection's own order.
   * `itemAt` reads the item at an index of the collection's own order, for an order by content
   * (a variant's order by name); the faithful order ignores it.
   */
  listOrder(total: number, itemAt: (index: number) => unknown): readonly number[] | null;
  /** Whether the key list shows a key: only keys not deleted (API document, API keys). */
  keyListed(key: { readonly revokedAtMs: number | null }): boolean;
}

export function faithfulBehaviour(): Behaviour {
  return {
    parsePageParam,
    pageWindow,
    totalCount: (total) => total,
    resetHeader: (resetAtMs) => Math.ceil(resetAtMs / 1000),
    // Rounded up, so that a client that waits this long finds the window over.
    retryAfterSeconds: (resetAtMs, nowMs) => Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000)),
    rateBucket: (key) => `key:${key.id}`,
    revokedGraceMs: 0,
    listOrder: () => null,
    keyListed: (key) => key.revokedAtMs === null,
  };
}
