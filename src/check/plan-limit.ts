import type { Exchange } from '../http/exchange.js';

/**
 * Rows per submission and a request body's size are limits the API document leaves open
 * ("Other limits (rows per submission, request body size): not shown"); a deployment answers a
 * request past them `422 plan_limit_exceeded` (Errors table: "exceeds a limit outside the current
 * plan") or `413`. Met by a body the suite chose to batch, such an answer is learnt, never judged.
 */
export type PlanLimitKind = 'rows' | 'bytes';

/** The plan limit an answer states, or null when it states none. */
export function planLimitOf(exchange: Exchange | undefined): { readonly kind: PlanLimitKind; readonly answer: string } | null {
  const status = exchange?.response?.status;
  if (status === 413) return { kind: 'bytes', answer: '413' };
  if (status !== 422) return null;
  const error = errorMembers(exchange!.response!.body);
  if (error?.type !== 'plan_limit_exceeded') return null;
  // `param` names the feature or resource; a limit that names none is taken to be on the rows sent.
  return { kind: typeof error.param === 'string' && /byte|size|body/i.test(error.param) ? 'bytes' : 'rows', answer: '422 plan_limit_exceeded' };
}

function errorMembers(body: string): { type?: unknown; param?: unknown } | null {
  try {
    const error = (JSON.parse(body) as { error?: unknown } | null)?.error;
    return typeof error === 'object' && error !== null ? (error as { type?: unknown; param?: unknown }) : null;
  } catch {
    return null;
  }
}

/** The rows and bytes a submission request carried, or null when its body cannot be read whole. */
function sizeOf(exchange: Exchange): { rows: number; bytes: number } | null {
  const body = exchange.request.body;
  if (body === undefined || exchange.request.truncated) return null;
  try {
    const rows = (JSON.parse(body) as { rows?: unknown } | null)?.rows;
    return Array.isArray(rows) ? { rows: rows.length, bytes: exchange.request.bytes ?? Buffer.byteLength(body) } : null;
  } catch {
    return null;
  }
}

const UNITS: Record<PlanLimitKind, (n: number) => string> = {
  rows: (n) => `${n} row${n === 1 ? '' : 's'}`,
  bytes: (n) => (n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} bytes`),
};

const PER: Record<PlanLimitKind, string> = { rows: 'rows a submission', bytes: 'a submission body' };

/**
 * What the exchanges of a check show of the deployment's plan limits, one line a limit: the
 * smallest request it refused for one, and the largest of that measure it accepted, e.g.
 * `the deployment accepts fewer than 80 rows a submission (80 refused: 422 plan_limit_exceeded; 40 accepted)`.
 */
export function learntLimits(exchanges: readonly Exchange[]): string[] {
  const refused = new Map<PlanLimitKind, { size: number; answer: string }>();
  const accepted: Record<PlanLimitKind, number> = { rows: 0, bytes: 0 };
  for (const e of exchanges) {
    if (e.request.method !== 'POST') continue;
    const size = sizeOf(e);
    if (!size) continue;
    const status = e.response?.status ?? 0;
    if (status >= 200 && status < 300) {
      accepted.rows = Math.max(accepted.rows, size.rows);
      accepted.bytes = Math.max(accepted.bytes, size.bytes);
      continue;
    }
    const limit = planLimitOf(e);
    if (!limit) continue;
    const known = refused.get(limit.kind);
    if (!known || size[limit.kind] < known.size) refused.set(limit.kind, { size: size[limit.kind], answer: limit.answer });
  }
  return [...refused].map(([kind, { size, answer }]) => {
    const unit = UNITS[kind];
    const largest = accepted[kind] > 0 && accepted[kind] < size ? `; ${unit(accepted[kind])} accepted` : '';
    return kind === 'rows'
      ? `the deployment accepts fewer than ${unit(size)} a submission (${unit(size)} refused: ${answer}${largest})`
      : `the deployment accepts ${PER[kind]} smaller than ${unit(size)} (${unit(size)} refused: ${answer}${largest})`;
  });
}
