/**
 * Page and limit as the document bounds them (Pagination parameters): page from 1, limit 1 to
 * 10000, defaults 1 and 100. The reference is strict: only plain decimal digits are numbers; an
 * empty value means the default; a repeated parameter is refused. Every other spelling is 422.
 */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 10_000;

export type ParamResult = { ok: true; value: bigint } | { ok: false; message: string };

export function parsePageParam(raw: unknown, name: 'page' | 'limit'): ParamResult {
  const fallback = name === 'page' ? 1n : BigInt(DEFAULT_LIMIT);
  if (raw === undefined || raw === '') return { ok: true, value: fallback };
  if (typeof raw !== 'string') return { ok: false, message: `${name} must be given once.` };
  if (!/^[0-9]+$/.test(raw)) return { ok: false, message: `${name} must be an integer.` };
  const value = BigInt(raw);
  if (name === 'page' && value < 1n) return { ok: false, message: 'page starts at 1.' };
  if (name === 'limit' && (value < 1n || value > BigInt(MAX_LIMIT))) return { ok: false, message: `limit must be between 1 and ${MAX_LIMIT}.` };
  return { ok: true, value };
}

export interface PageWindow {
  /** Index of the first item of the page; beyond `total` for a page past the end. */
  start: number;
  end: number;
  hasMore: boolean;
}

export function pageWindow(total: number, page: bigint, limit: bigint): PageWindow {
  const startBig = (page - 1n) * limit;
  if (startBig >= BigInt(total)) return { start: total, end: total, hasMore: false };
  const start = Number(startBig);
  const end = Math.min(total, start + Number(limit));
  return { start, end, hasMore: end < total };
}
