import type { Layer } from '../layer.js';
import type { RequestSpec } from '../request.js';

const BASE_BODY_CAP = 4 * 1024 * 1024;
const BODY_CAP_PER_ITEM = 4 * 1024;
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Gives every request a deadline (headers and body) and a cap on its body, which the transport
 * enforces: a target that hangs, drips or sends a gigantic body costs a failed check, never a
 * hung run or the memory of the machine.
 */
export function limits(timeoutMs = DEFAULT_TIMEOUT_MS): Layer {
  return (next) => (request) => next({ ...request, timeoutMs: request.timeoutMs ?? timeoutMs, maxBytes: request.maxBytes ?? bodyCap(request.spec) });
}

/** Caps the body by the page size asked for: a 10000-item page of real records is large. */
function bodyCap(spec: RequestSpec): number {
  const raw = spec.query && !Array.isArray(spec.query) ? (spec.query as Record<string, unknown>).limit : undefined;
  const limit = Number(raw);
  const items = Number.isInteger(limit) && limit > 0 ? Math.min(limit, 10_000) : 100;
  return BASE_BODY_CAP + items * BODY_CAP_PER_ITEM;
}
