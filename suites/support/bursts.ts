import { dateOf, type HttpResponse, RESET_MARGIN_SECONDS, rateHeaders, serverClockOf, sleep as defaultSleep, suiteNow } from '../../src/kit-judging.js';

/**
 * Crossing a rate limit on purpose, soundly for fixed and sliding windows alike.
 *
 * A burst starts on a fresh budget (a new key, or a bucket the run left alone for a whole window):
 * it sends `ceiling` requests a few at a time (a 1-second window leaves no time for one at a
 * time), then one at a time until the first 429. On a conformant target that 429 is request
 * `ceiling + 1` of its window. The catch is a fixed window whose boundary falls inside the burst:
 * the budget refills mid-way and the 429 comes later. Where the target sends X-RateLimit-Reset the
 * boundary shows (Reset jumps by about a window; a sliding Reset only creeps) and each window is
 * counted apart; where it sends none, a late 429 is ambiguous, so a second burst is timed to start
 * just after the boundary the first one implies. Only a second late 429 is a finding.
 */

/** One request of a burst, as the judge needs it. */
export interface BurstStep {
  readonly status: number;
  readonly reset: number | null;
  /** Local times (ms) the request left and its response was complete. */
  readonly sentAt: number;
  readonly doneAt: number;
}

export type BurstJudgement =
  /** The 429 is request `ceiling + 1` of its window. */
  | { readonly kind: 'limited'; readonly index: number }
  /** More than `ceiling` requests were accepted within one window (`index`: the one too many). */
  | { readonly kind: 'lax'; readonly index: number; readonly accepted: number }
  /** A 429 before the ceiling on a fresh budget: someone else spends it, nothing is proven. */
  | { readonly kind: 'early'; readonly index: number; readonly accepted: number }
  /** The target answered too slowly for a burst to fill one window: nothing is proven. */
  | { readonly kind: 'slow'; readonly index: number }
  /** No headers and a late 429: a window boundary may lie just before local time `boundaryBy`. */
  | { readonly kind: 'ambiguous'; readonly index: number; readonly boundaryBy: number }
  /** Not decided yet: send another request. */
  | { readonly kind: 'continue' };

/**
 * One response as a step. A Reset that is no Unix time within a window of now (milliseconds, or
 * seconds from now) cannot tell windows apart, so it counts as absent. Now is the target's, its
 * `Date`, where it sends one: the suite's clock may be minutes off, and the `Date` may lag by as
 * much (a server that caches it), so the margin is RATE-2's, minutes.
 */
export function stepOf(res: HttpResponse, sentAt: number, doneAt: number, windowMs: number): BurstStep {
  const reset = rateHeaders(res.headers).reset;
  const now = dateOf(res.headers) ?? doneAt;
  const plausible = reset !== null && Math.abs(reset * 1000 - now) <= windowMs + PLAUSIBLE_SKEW_MS;
  return { status: res.status, reset: plausible ? reset : null, sentAt, doneAt };
}

/** Further bursts tried when one could not fill a window in time. */
const SLOW_RETRIES = 2;

/** Clock difference tolerated between the suite and the target, or a stale `Date`, when reading a Reset. */
const PLAUSIBLE_SKEW_MS = RESET_MARGIN_SECONDS * 1000;

/** Most requests one burst sends: enough to fill a whole window even when a boundary falls inside. */
export function burstCap(ceiling: number): number {
  return 2 * ceiling + 1;
}

/**
 * Judges the steps of one burst that started on a fresh budget, in the order their responses
 * completed. `aligned` says the burst was timed to start just after a window boundary (a second
 * attempt), so that a late 429 is no longer ambiguous.
 */
export function judgeBurst(steps: readonly BurstStep[], ceiling: number, windowMs: number, aligned = false, uncertainBefore = 0): BurstJudgement {
  // Fewer accepted than the ceiling, by no more than the requests before the burst that the target
  // may or may not still count (`uncertainBefore`), is the ceiling.
  const atCeiling = (accepted: number) => accepted === ceiling || (accepted < ceiling && accepted + uncertainBefore >= ceiling);
  const first429 = steps.findIndex((s) => s.status === 429);
  const before = first429 === -1 ? steps : steps.slice(0, first429);
  // Answers complete out of order (a burst's requests are in flight on several connections): an
  // accepted request sent before the 429 was answered may have been counted before it, though its
  // answer came after. A 429 is early only if even those fall short of the ceiling.
  const early = (): boolean => {
    const answeredAt = steps[first429]!.doneAt;
    const mayHaveCounted = steps.filter((s) => s.status !== 429 && s.sentAt < answeredAt).length;
    return Math.max(before.length, mayHaveCounted) + uncertainBefore < ceiling;
  };
  const full = steps.length >= burstCap(ceiling);
  const span = steps.length === 0 ? 0 : Math.max(...steps.map((s) => s.doneAt)) - Math.min(...steps.map((s) => s.sentAt));
  if (before.length > 0 && before.every((s) => s.reset !== null)) {
    const windows = windowsOf(before, windowMs);
    const over = windows.map((w) => pastCeiling(w, ceiling, windowMs)).find((o) => o !== null);
    if (over) return { kind: 'lax', index: steps.indexOf(over.step), accepted: over.accepted };
    if (first429 === -1) return full ? { kind: 'slow', index: steps.length - 1 } : { kind: 'continue' };
    const refused = steps[first429]!;
    const own = refused.reset === null ? windows[windows.length - 1]! : nearest(windows, refused.reset);
    if (atCeiling(own.length)) return { kind: 'limited', index: first429 };
    // Fewer than the ceiling in all, on a fresh budget: someone else spends it. More in all, none
    // over it in one window: a budget that refills as it goes (a token bucket's Reset creeps on
    // with every request), where the 429 comes once requests outrun the refill.
    if (early()) return { kind: 'early', index: first429, accepted: own.length };
    return { kind: 'limited', index: first429 };
  }
  if (first429 === -1) {
    if (!full) return { kind: 'continue' };
    return span < windowMs ? { kind: 'lax', index: ceiling, accepted: steps.length } : { kind: 'slow', index: steps.length - 1 };
  }
  const accepted = before.length;
  if (atCeiling(accepted)) return { kind: 'limited', index: first429 };
  if (early()) return { kind: 'early', index: first429, accepted };
  if (accepted < ceiling) return { kind: 'limited', index: first429 };
  if (aligned) return { kind: 'lax', index: first429, accepted };
  // The last `ceiling` accepted requests share the 429's window: the boundary precedes them.
  return { kind: 'ambiguous', index: first429, boundaryBy: before[accepted - ceiling]!.doneAt };
}

/**
 * In one window's accepted requests, the one past the ceiling that came within a window's time of
 * the `ceiling` before it, and how many the window holds; null where none did. One Reset does not
 * make one window: a sliding log names the time its oldest request leaves, in whole seconds, while
 * its oldest requests leave, so that a burst slower than a window (a loaded machine, a short
 * window) is accepted past the ceiling under one Reset, by a limit that works. A fixed window's
 * requests all come within its length.
 */
function pastCeiling(window: readonly BurstStep[], ceiling: number, windowMs: number): { step: BurstStep; accepted: number } | null {
  for (let last = ceiling; last < window.length; last++) {
    if (window[last]!.doneAt - window[last - ceiling]!.sentAt < windowMs) return { step: window[last]!, accepted: window.length };
  }
  return null;
}

/** Accepted requests grouped by window: a Reset half a window or more past the last starts one. */
function windowsOf(steps: readonly BurstStep[], windowMs: number): BurstStep[][] {
  const sorted = [...steps].sort((a, b) => a.reset! - b.reset!);
  const windows: BurstStep[][] = [];
  for (const step of sorted) {
    const current = windows[windows.length - 1];
    if (current && (step.reset! - current[0]!.reset!) * 1000 < windowMs / 2) current.push(step);
    else windows.push([step]);
  }
  // Back in the order the responses completed, so that `over[ceiling]` is the one too many.
  return windows.map((w) => w.sort((a, b) => a.doneAt - b.doneAt));
}

function nearest(windows: readonly BurstStep[][], reset: number): BurstStep[] {
  return windows.reduce((best, w) => (Math.abs(w[0]!.reset! - reset) < Math.abs(best[0]!.reset! - reset) ? w : best));
}

export interface BurstResult {
  readonly judgement: Exclude<BurstJudgement, { kind: 'continue' | 'ambiguous' }>;
  /** Every response of the burst(s), in order; the last attempt's come last. */
  readonly responses: HttpResponse[];
  /** The responses of the attempt the judgement is about. */
  readonly attempt: HttpResponse[];
  /** The first 429 of the judged attempt, if any, with its local receipt time. */
  readonly first429: { readonly res: HttpResponse; readonly at: number } | null;
}

export interface BurstOptions {
  /** Sends one request of the burst (unpaced, a 429 expected). */
  readonly send: () => Promise<HttpResponse>;
  readonly ceiling: number;
  readonly windowMs: number;
  /** Resolves once the budget is fresh again (a whole window without our requests). */
  readonly untilFresh: () => Promise<void>;
  /**
   * Requests the key already made just before the burst (a new key's first use): they count
   * against the first burst's budget. @default none
   */
  readonly prior?: readonly HttpResponse[];
  /**
   * Requests just before the burst that the target may or may not count against the first burst's
   * budget: with a new key, those answered 401 while it was not yet known everywhere (its
   * propagation; a gateway's limit counts a token's requests before it authenticates them, another
   * does not); without a key, those whose window the target named a little differently
   * (suites/ip-limits.suite.ts). @default 0
   */
  readonly refusedPrior?: number;
  /**
   * Requests in flight while the first `ceiling` are sent.
   * @default 25
   */
  readonly concurrency?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * Requests of the judged attempt that the suite sent again (`retryOf`): the API gave no answer to
 * the first sending (a connection that failed before any byte, a front end's 502/503/504), which
 * the target may still have counted, so that a 429 before the ceiling may be the suite's own
 * doing, and proves nothing.
 */
export function resentIn(burst: BurstResult): number {
  return burst.attempt.filter((res) => res.exchange.retryOf !== undefined).length;
}

/** Sends bursts until the judgement is clear: at most two, the second aligned to a boundary. */
export async function provokeLimit(options: BurstOptions): Promise<BurstResult> {
  const now = options.now ?? suiteNow;
  const sleep = options.sleep ?? defaultSleep;
  const responses: HttpResponse[] = [];
  let aligned = false;
  let slowRetries = 0;
  let prior = (options.prior ?? []).map((res) => {
    const sentAt = Date.parse(res.exchange.startedAt);
    return { res, step: stepOf(res, sentAt, sentAt + res.exchange.durationMs, options.windowMs) };
  });
  let uncertain = options.refusedPrior ?? 0;
  for (;;) {
    const done: { res: HttpResponse; step: BurstStep }[] = prior;
    const uncertainBefore = uncertain;
    prior = [];
    uncertain = 0;
    const one = async () => {
      const sentAt = now();
      const res = await options.send();
      done.push({ res, step: stepOf(res, sentAt, now(), options.windowMs) });
    };
    // The budget first, a few at a time; responses are kept in the order they completed.
    let started = done.length;
    const lane = async () => {
      while (started < options.ceiling) {
        started++;
        await one();
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 25, options.ceiling) }, lane));
    let judgement = judgeBurst(
      done.map((d) => d.step),
      options.ceiling,
      options.windowMs,
      aligned,
      uncertainBefore,
    );
    // Then one at a time until the judgement is clear.
    while (judgement.kind === 'continue') {
      await one();
      judgement = judgeBurst(
        done.map((d) => d.step),
        options.ceiling,
        options.windowMs,
        aligned,
        uncertainBefore,
      );
    }
    responses.push(...done.map((d) => d.res));
    if (judgement.kind === 'ambiguous') {
      // Fixed windows repeat every windowMs: start the next burst just after a boundary, with a
      // twentieth of a window to spare for the estimate's error.
      await options.untilFresh();
      const boundary = judgement.boundaryBy + options.windowMs / 20;
      const next = boundary + Math.ceil((now() - boundary) / options.windowMs) * options.windowMs;
      await sleep(Math.max(0, next - now()));
      aligned = true;
      continue;
    }
    if (judgement.kind === 'slow' && slowRetries < SLOW_RETRIES) {
      // The windows rolled on under a slow burst (a loaded machine, a short window): try again
      // from the very start of a window where the Reset names it, else from a fresh budget.
      slowRetries++;
      const lastReset = done[done.length - 1]?.step.reset ?? null;
      if (lastReset === null) await options.untilFresh();
      else await sleep(Math.max(0, serverClockOf(done.map((d) => d.res.exchange)).toSuite(lastReset * 1000) + 20 - now()));
      // The Reset a sliding log names is when its oldest request leaves: the ones this attempt
      // sent within a window of now may still count, and the next attempt meet its 429 that much
      // before the ceiling, on a budget no one else spends.
      const since = now() - options.windowMs;
      uncertain = done.filter((d) => d.step.doneAt > since).length;
      continue;
    }
    const attempt = done.map((d) => d.res);
    const index = done.findIndex((d) => d.res.status === 429);
    const first429 = index === -1 ? null : { res: done[index]!.res, at: done[index]!.step.doneAt };
    return { judgement, responses, attempt, first429 };
  }
}
