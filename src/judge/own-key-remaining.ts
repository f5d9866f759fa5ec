import { endedAt, fromApi, type Exchange } from '../http/exchange.js';
import { rateHeaders } from '../http/rate-headers.js';
import type { Profile } from '../profile/profile.js';

// RATE-8 on the keys only the run holds (its pool's, and the keys it creates): there every request
// that spent the budget is in the log, so X-RateLimit-Remaining can be held against what the run
// spent and what could have come back. How the window is kept is not stated, so what may come back
// between two answers is the most of every kind together (`backBetween`).

type Answered = Exchange & { response: NonNullable<Exchange['response']> };

type Sequential = (before: Answered, after: Answered) => boolean;
type SameWindow = (before: Answered, reset: number) => boolean;
type Finding = { reason: string; exchange: Exchange };

/**
 * Seconds either side of the window's length within which a request of a sliding log may leave
 * it: a limiter that keeps its log at a second's precision, or on a clock a little off the suite's.
 */
const LEAVING_SLACK_MS = 2_000;

/** The longest run of sequential requests a short fall is looked for in: a flat stretch shows well within it. */
const MOST_REQUESTS_APART = 200;

const answerOf = (e: Exchange): string => {
  const { remaining, reset } = rateHeaders(e.response?.headers ?? {});
  return `${e.request.method} ${e.request.url} ${remaining} ${reset}`;
};

/** Whether only this run holds the key: one it created, for a check or for its pool. No other client spends its budget. */
const runsOwnKey = (e: Pick<Exchange, 'auth' | 'pooled'>): boolean => e.auth === 'created' || e.pooled === true;

/** Every request of one key, answered or not (one that met a reset may still have been counted), for counting those in a span. */
class KeyRequests {
  readonly #starts: number[];
  readonly #ends: number[];

  constructor(readonly all: readonly Exchange[]) {
    this.#starts = all.map((e) => Date.parse(e.startedAt)).sort((x, y) => x - y);
    this.#ends = all.map(endedAt).sort((x, y) => x - y);
  }

  /** The requests that ended at `fromMs` or later and started at `toMs` or before. */
  within(fromMs: number, toMs: number): number {
    if (toMs < fromMs) return 0;
    // Those that ended before `fromMs` and those that started after `toMs` are apart: a request ends after it starts.
    return countWhere(this.#starts, (start) => start <= toMs) - countWhere(this.#ends, (end) => end < fromMs);
  }
}

/** How many of the sorted `values` come before the first for which `holds` fails (it holds for a prefix). */
function countWhere(values: readonly number[], holds: (value: number) => boolean): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (holds(values[mid]!)) low = mid + 1;
    else high = mid;
  }
  return low;
}

interface Back {
  /** The most that could have come back: refill, leaving and one for rounding. */
  readonly most: number;
  readonly refill: number;
  readonly leaving: number;
  readonly ceiling: number;
  readonly sinceMs: number;
}

/**
 * The most a key's budget could have given back between the start of `from` and the end of `to`: a
 * token bucket's refill over that time at the ceiling's rate (the larger of the one declared and
 * the one the answers claim), the key's own requests a sliding log lets go over it (those sent a
 * window before), and one besides for rounding.
 */
function backBetween(key: KeyRequests, from: Answered, to: Answered, profile: Pick<Profile, 'limits'>): Back {
  const windowMs = profile.limits.windowSeconds * 1000;
  const startMs = Date.parse(from.startedAt);
  const sinceMs = endedAt(to) - startMs;
  const limits = [from, to].map((e) => rateHeaders(e.response.headers).limit ?? 0);
  const ceiling = Math.max(profile.limits.perKeyPerMinute, ...limits);
  const refill = Math.ceil((sinceMs / windowMs) * ceiling);
  const leaving = key.within(startMs - windowMs - LEAVING_SLACK_MS, endedAt(to) - windowMs + LEAVING_SLACK_MS);
  return { most: refill + leaving + 1, refill, leaving, ceiling, sinceMs };
}

const backWords = (back: Back, windowSeconds: number): string =>
  `at most ${back.most} could have come back in ${(back.sinceMs / 1000).toFixed(1)} s (a refill at ${back.ceiling} a ${windowSeconds}-s window, ${back.leaving} of its requests leaving a sliding window, 1 for rounding)`;

/**
 * The keys only the run holds, each with its requests; and a test of whether an answer may be a
 * cache's copy rather than the budget now: one with an `Age`, or with the Remaining and Reset an
 * earlier answer to the same method and URL had (of any key: a cache may ignore the credential).
 */
interface OwnKeys {
  readonly keys: readonly KeyRequests[];
  readonly copied: (e: Answered) => boolean;
}

function ownKeys(log: readonly Exchange[]): OwnKeys {
  const byKey = new Map<string, Exchange[]>();
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
  const copied = (e: Answered) => e.response.headers.age !== undefined || first.get(answerOf(e)) !== e;
  return { keys: [...byKey.values()].map((requests) => new KeyRequests(requests)), copied };
}

/**
 * RATE-8 on the keys only the run holds, the log read once: its rises (`remainingRises`) and its short
 * falls (`remainingShortFalls`), one finding an answer; where a rise explains an answer, the rise says it.
 * `sequential` and `sameWindow` are the caller's: RATE-8's own reading of a pair.
 */
export function ownKeyRemaining(log: readonly Exchange[], profile: Pick<Profile, 'limits'>, sequential: Sequential, sameWindow: SameWindow): Finding[] {
  const own = ownKeys(log);
  const found = new Map<Exchange, Finding>();
  for (const f of [...remainingShortFalls(own, profile, sequential, sameWindow), ...remainingRises(own, profile, sequential, sameWindow)])
    found.set(f.exchange, f);
  return [...found.values()];
}

/**
 * RATE-8's rises: a key's X-RateLimit-Remaining that went up between two sequential requests of
 * one window (the same Reset) by more than could have come back in between (`backBetween`).
 */
function remainingRises({ keys, copied }: OwnKeys, profile: Pick<Profile, 'limits'>, sequential: Sequential, sameWindow: SameWindow): Finding[] {
  const found: Finding[] = [];
  for (const key of keys) {
    let before: Answered | undefined;
    for (const e of key.all.filter((r): r is Answered => fromApi(r))) {
      const previous = before;
      before = e;
      const b = rateHeaders(e.response.headers);
      if (!previous || e.response.status === 429 || copied(e)) continue;
      const a = rateHeaders(previous.response.headers);
      if (a.remaining === null || b.remaining === null || a.reset === null || a.reset !== b.reset) continue;
      if (b.remaining <= a.remaining || !sequential(previous, e) || !sameWindow(previous, a.reset)) continue;
      const back = backBetween(key, previous, e, profile);
      if (b.remaining - a.remaining <= back.most) continue;
      found.push({
        reason:
          `X-RateLimit-Remaining rose from ${a.remaining} to ${b.remaining} between two sequential requests of a key only this run holds, in one window (Reset ${a.reset}): ` +
          `${backWords(back, profile.limits.windowSeconds)}. ` +
          `Its requests look counted apart (by route, region or instance); a window shorter than the profile's limits.windowSeconds would also explain it`,
        exchange: e,
      });
    }
  }
  return found;
}

/**
 * RATE-8's short falls: over a run of sequential requests of a key in one window (the same Reset,
 * each answered with its Remaining, none a 429), X-RateLimit-Remaining fell by less than the
 * requests spent, less what could have come back (`backBetween`) and one more for rounding. A
 * budget whose Remaining stays while requests are counted (counters flushed in batches, a replica's
 * stale read) shows here, where pair by pair a token bucket's refill could explain each step. One
 * finding a run of requests, the largest shortfall.
 */
function remainingShortFalls({ keys, copied }: OwnKeys, profile: Pick<Profile, 'limits'>, sequential: Sequential, sameWindow: SameWindow): Finding[] {
  const found: Finding[] = [];
  for (const key of keys) {
    for (const chain of sequentialRuns(key.all, sequential, sameWindow, copied)) {
      let worst: { short: number; i: number; j: number; back: Back } | null = null;
      for (let j = 2; j < chain.length; j++) {
        for (let i = Math.max(0, j - MOST_REQUESTS_APART); i <= j - 2; i++) {
          const spent = j - i;
          const fell = chain[i]!.remaining - chain[j]!.remaining;
          const back = backBetween(key, chain[i]!.exchange, chain[j]!.exchange, profile);
          const short = spent - fell - back.most - 1;
          if (short > 0 && (!worst || short > worst.short)) worst = { short, i, j, back };
        }
      }
      if (!worst) continue;
      const from = chain[worst.i]!;
      const to = chain[worst.j]!;
      found.push({
        reason:
          `X-RateLimit-Remaining went from ${from.remaining} to ${to.remaining} over ${worst.j - worst.i} sequential requests of a key only this run holds, in one window (Reset ${from.reset}): ` +
          `each takes one from the budget, and ${backWords(worst.back, profile.limits.windowSeconds)}, and 1 more besides. ` +
          `Its requests look counted late or in batches; a window shorter than the profile's limits.windowSeconds would also explain it`,
        exchange: to.exchange,
      });
    }
  }
  return found;
}

interface Step {
  readonly exchange: Answered;
  readonly remaining: number;
  readonly reset: number;
}

/**
 * A key's requests cut into runs in which each followed the one before sequentially, in one window
 * (the same Reset, a plausible one), each answered by the API with its Remaining and not a 429 nor a
 * cache's copy. Anything else ends a run: a request with no Remaining may not have been counted.
 */
function sequentialRuns(requests: readonly Exchange[], sequential: Sequential, sameWindow: SameWindow, copied: (e: Answered) => boolean): Step[][] {
  const runs: Step[][] = [];
  let current: Step[] = [];
  const close = () => {
    if (current.length >= 3) runs.push(current);
    current = [];
  };
  for (const e of requests) {
    if (!fromApi(e)) {
      close();
      continue;
    }
    const answered = e as Answered;
    const { remaining, reset } = rateHeaders(answered.response.headers);
    if (remaining === null || reset === null || answered.response.status === 429 || copied(answered)) {
      close();
      continue;
    }
    const previous = current.at(-1);
    if (previous && !(previous.reset === reset && sequential(previous.exchange, answered))) close();
    if (current.length === 0 && !sameWindow(answered, reset)) continue;
    current.push({ exchange: answered, remaining, reset });
  }
  close();
  return runs;
}
