import type { CheckContext, HttpResponse } from '../../src/kit.js';
import type { BurstResult } from './bursts.js';

/** A cheap authenticated read: the request every burst without a key repeats, and every single probe. */
export const PROBE = { path: '/api/v1/workspaces', query: { limit: 1 } } as const;

/** The 429 a burst provoked, or a finding that the ceiling was crossed without one. */
export function first429Of(t: CheckContext, burst: BurstResult, who: string, ceiling: number): HttpResponse {
  const { judgement, attempt } = burst;
  if (judgement.kind === 'lax') {
    const at = attempt[judgement.index]!;
    if (!burst.first429)
      t.fail(`${attempt.length} requests ${who} in a row, none refused: the ceiling of ${ceiling} a window is not enforced`, ...attempt.slice(-2));
    if (at.status === 429)
      t.fail(
        `the first 429 ${who} came only after ${judgement.accepted} requests within one window: the ceiling is ${ceiling}`,
        ...attempt.slice(judgement.index - 1, judgement.index + 1),
      );
    t.fail(
      `request ${judgement.accepted} ${who} within one window was answered ${at.status}, not 429: the ceiling is ${ceiling}`,
      ...attempt.slice(Math.max(0, judgement.index - 1), judgement.index + 1),
    );
  }
  if (judgement.kind === 'slow') {
    t.skip(
      `${attempt.length} requests ${who} did not fit in one window of ${t.profile.limits.windowSeconds} s: the target answered too slowly to reach the ceiling`,
    );
  }
  if (judgement.kind === 'early') {
    t.skip(
      `a 429 came after only ${judgement.accepted} requests ${who} on a fresh budget of ${ceiling}: another client seems to share it, the count proves nothing`,
    );
  }
  return burst.first429!.res;
}
