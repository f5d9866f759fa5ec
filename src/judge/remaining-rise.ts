import { endedAt, fromApi, type Exchange } from '../http/exchange.js';
import { rateHeaders } from '../http/rate-headers.js';
import type { Profile } from '../profile/profile.js';

type Answered = Exchange & { response: NonNullable<Exchange['response']> };

/**
 * Seconds either side of the window's length within which a request of a sliding log may leave
 * it: a limiter that keeps its log at a second's precision, or on a clock a little off the suite's.
 */
const LEAVING_SLACK_MS = 2_000;

const answerOf = (e: Exchange): string => {
  const { remaining, reset } = rateHeaders(e.response?.headers ?? {});
  return `${e.request.method} ${e.request.url} ${remaining} ${reset}`;
};

/** Whether only this run holds the key: one it created, for a check or for its pool. No other client spends its budget. */
const runsOwnKey = (e: Pick<Exchange, 'auth' | 'pooled'>): boolean => e.auth === 'created' || e.pooled === true;

/**
 * RATE-8's rises: a key's X-RateLimit-Remaining that went up between two sequential requests of
 * one window (the same Reset) by more than any budget could have given back in between. Only on
 * the keys the run alone holds, where every request that spent the budget is in the log. How the
 * window is kept is not stated, so what may come back is the most of every kind together: a
 * token bucket's refill over the time between the first request's start and the second's end,
 * at the ceiling's rate (the larger of the one declared and the one the answer claims), and the
 * run's own requests of the key that a sliding log lets go over that time (those sent a window
 * before), and one besides for rounding. An answer with an `Age`, or with the Remaining and Reset of
 * an earlier answer to the same method and URL (of any key: a cache may ignore the credential),
 * may be a cache's copy, not the budget now: passed over. `sequential` is the caller's: the pairs of RATE-8's own reading.
 */
export function remainingRises(
  log: readonly Exchange[],
  profile: Pick<Profile, 'limits'>,
  sequential: (before: Answered, after: Answered) => boolean,
  sameWindow: (before: Answered, reset: number) => boolean,
): { reason: string; exchange: Exchange }[] {
  const windowMs = profile.limits.windowSeconds * 1000;
  // Every request of the key, answered or not: one that met a reset may still have been counted.
  const byKey = new Map<string, Exchange[]>();
  // The first answer of each method and URL with each Remaining and Reset, whatever its key: a
  // cache serves an earlier answer of the same URL, and one that ignores the credential another key's.
  const first = new Map<string, Exchange>();
  for (const e of log) {
    if (fromApi(e)) {
      const answer = answerOf(e);
      if (!first.has(answer)) first.set(answer, e);
    }
    if (!runsOwnKey(e)) continue;
    const list = byKey.get(e.bucket);
    if (list) list.push(e);
    else byKey.set(e.bucket, [e]);
  }
  const found: { reason: string; exchange: Exchange }[] = [];
  for (const requests of byKey.values()) {
    let before: Answered | undefined;
    for (const e of requests.filter((r): r is Answered => fromApi(r))) {
      const previous = before;
      before = e;
      const b = rateHeaders(e.response.headers);
      const replayed = first.get(answerOf(e)) !== e;
      if (!previous || e.response.status === 429 || e.response.headers.age !== undefined) continue;
      const a = rateHeaders(previous.response.headers);
      if (a.remaining === null || b.remaining === null || a.reset === null || a.reset !== b.reset) continue;
      if (b.remaining <= a.remaining || replayed || !sequential(previous, e) || !sameWindow(previous, a.reset)) continue;
      const sinceMs = endedAt(e) - Date.parse(previous.startedAt);
      const ceiling = Math.max(profile.limits.perKeyPerMinute, a.limit ?? 0, b.limit ?? 0);
      const refill = Math.ceil((sinceMs / windowMs) * ceiling);
      const from = Date.parse(previous.startedAt) - windowMs - LEAVING_SLACK_MS;
      const to = endedAt(e) - windowMs + LEAVING_SLACK_MS;
      const leaving = requests.filter((r) => endedAt(r) >= from && Date.parse(r.startedAt) <= to).length;
      const most = refill + leaving + 1;
      if (b.remaining - a.remaining <= most) continue;
      found.push({
        reason:
          `X-RateLimit-Remaining rose from ${a.remaining} to ${b.remaining} between two sequential requests of a key only this run holds, in one window (Reset ${a.reset}): ` +
          `at most ${most} could have come back in ${(sinceMs / 1000).toFixed(1)} s (a refill at ${ceiling} a ${profile.limits.windowSeconds}-s window, ${leaving} of its requests leaving a sliding window, 1 for rounding). ` +
          `Its requests look counted apart (by route, region or instance); a window shorter than the profile's limits.windowSeconds would also explain it`,
        exchange: e,
      });
    }
  }
  return found;
}
