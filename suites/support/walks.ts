import type { CheckContext } from '../../src/kit.js';
import type { IdSet } from './id-set.js';
import { walk, walkBudget, type WalkClause, type WalkResult } from './walk.js';

// Walks of one list at several limits, and their judgement for one clause: what the pagination
// suite does before anything writes, and the after-writes suite once the run's writes are done.

/**
 * Walks `list` once per limit, each within the run's walk budget. The first complete walk is the
 * one the others are compared with; no other id set is kept, and results keep no page.
 */
export async function walkAtLimits(t: CheckContext, list: string, idField: string | null, limits: readonly number[]): Promise<WalkResult[]> {
  const budget = walkBudget(t.profile.limits);
  let known: { limit: number; ids: IdSet } | null = null;
  const results: WalkResult[] = [];
  for (const limit of limits) {
    const result = await walk((page, size) => t.http.get(list, { query: { page, limit: size }, listSkeleton: { idField } }), {
      limit,
      idField,
      budget,
      known,
    });
    if (!known && result.ids) known = { limit, ids: result.ids };
    results.push({ ...result, ids: null });
  }
  return results;
}

/** Fails on the first problem a walk found for `clause`; skips when no walk could be judged. */
export function judgeWalks(t: CheckContext, results: readonly WalkResult[], clause: WalkClause): void {
  const changed = results.find((r) => r.unjudged?.startsWith('total_count changed'));
  if (changed) t.skip(changed.unjudged!);
  for (const result of results) {
    const problem = result.problems[clause];
    if (problem) t.fail(problem.reason, problem.evidence);
  }
  if (clause !== 'PAG-1' && results.every((r) => r.unjudged !== null)) t.skip(`no walk could be judged: ${results.map((r) => r.unjudged).join('; ')}`);
}
