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
  /** Seconds a revoked key keeps working (a cache, in a faulty server). */
  revokedGraceMs: number;
}

export function faithfulBehaviour(): Behaviour {
  return {
    parsePageParam,
    pageWindow,
    totalCount: (total) => total,
    resetHeader: (resetAtMs) => Math.ceil(resetAtMs / 1000),
    revokedGraceMs: 0,
  };
}
