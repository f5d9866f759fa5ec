import { endedAt, sleep, suiteNow, type CheckContext, type HttpResponse, isLoopback, RESET_SKEW_SECONDS, rateHeaders, type UsableKey } from '../../src/kit.js';
import { provokeLimit, type BurstResult } from './bursts.js';
import { PROBE } from './limits.js';

// A key created for the purpose and exhausted once per run, so that the main key keeps its budget,
// by a burst over several list routes in turn (the budget is the key's, whatever the route): the
// evidence RATE-3, RATE-5 and RATE-6 share (suites/rate-limits.suite.ts, suites/ip-limits.suite.ts).

/** One request of a key's exhausting burst. */
export interface BurstRoute {
  readonly path: string;
  readonly query: Readonly<Record<string, number>>;
}

/**
 * The cheap reads a key's exhausting burst takes in turn: the document's lists and the profile's
 * key list, one item a page, and among them a list asked for page 0, which every conformant target
 * refuses (PAG-3: 422). The budget is per key "for all authenticated requests" (API document,
 * Limits), whatever their route and however they are answered, so a burst spread over routes and
 * answers meets its 429 at the same ceiling as one on a single path; a budget kept per route, or
 * one that gives a failed request back, lets it run on.
 */
export function burstRoutes(t: CheckContext): BurstRoute[] {
  const paths = ['/api/v1/workspaces', '/api/v1/governance_models', '/api/v1/records', t.profile.paths.apiKeyList];
  const reads = [...new Set(paths.filter((path): path is string => path !== null))].map((path) => ({ path, query: PROBE.query }));
  return [...reads, { path: '/api/v1/workspaces', query: { ...PROBE.query, page: 0 } }];
}

/** `/api/v1/workspaces?limit=1&page=0`, as a failed check names the burst. */
export function describeRoute(route: BurstRoute): string {
  return `${route.path}?${new URLSearchParams(Object.entries(route.query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
}

/** The exhaustion of the created key, and what was seen right after it. */
export interface Exhaustion {
  readonly key: UsableKey;
  /** RATE-3's burst, over several routes in turn. */
  readonly burst: BurstResult;
  /**
   * The burst that exhausted the key, whose 429 RATE-5 and RATE-6 start from: `burst`, or where
   * that crossed the ceiling unrefused, a burst on one route after it.
   */
  readonly exhausting: BurstResult;
  /** RATE-6: the main key, sent right after the created key's first 429. */
  readonly main: HttpResponse | null;
  /** The created key again, right after: still refused within the window its 429 named. */
  readonly again: { readonly res: HttpResponse; readonly sentAt: number } | null;
  /** RATE-5: the created key once the 429's Retry-After has passed (started in the background). */
  readonly recovery: Promise<Recovery> | null;
  /** RATE-6: attempts on which the main key was refused while the created key was. */
  readonly mainRefusals: number;
}

export type Recovery = { readonly res: HttpResponse; readonly waitedS: number } | { readonly skip: string };

/**
 * Exhausts a created key once per run; every RATE check that needs it awaits the same result:
 * RATE-3 and RATE-6 beside KEY, RATE-5 (the wait for its Retry-After) with RATE-7 in the phase after.
 */
export function exhausted(t: CheckContext): Promise<Exhaustion> {
  return t.onceForRun('exhaustion', () => exhaust(t));
}

async function exhaust(t: CheckContext): Promise<Exhaustion> {
  // Its first use may have been slow: that is KEY-2's to judge, not a reason to exhaust nothing.
  const key = await t.keys.forCheck('rate-limits', { mustAuthenticate: false });
  // Shared by every RATE check that awaits it: its exchanges are no one check's evidence.
  const http = t.sharedHttp;
  const budget = t.budget;
  const auth = t.keys.credential(key);
  const { perKeyPerMinute, windowSeconds } = t.profile.limits;
  const probe = (credential: 'main' | typeof auth) => http.get(PROBE.path, { query: PROBE.query, auth: credential, pace: false, expect429: true });
  const routes = burstRoutes(t);
  let sent = 0;
  /** RATE-3's burst, once a burst over the routes crossed the ceiling unrefused; the next bursts keep to one route. */
  let crossed: BurstResult | null = null;
  const nextRoute = () => (crossed ? routes[0]! : routes[sent++ % routes.length]!);
  let mainRefusals = 0;
  /**
   * Waits until the key's next burst starts on a fresh budget, or a 429 before the ceiling reads as
   * a budget shared with other keys (RATE-6). The Reset the target named need not say when that is:
   * a sliding log names the time its oldest request leaves the window, while requests sent since may
   * still be in it. A whole window after the last of `responses`, every way of counting has
   * forgotten them.
   */
  const untilForgotten = async (responses: readonly HttpResponse[]) => {
    await budget.untilFresh(auth);
    await sleep(lastEndOf(responses) + windowSeconds * 1000 + FRESH_SLACK_MS - suiteNow());
  };
  for (let attempt = 1; ; attempt++) {
    // The main key's probe must not wait for the pacer once the created key is refused: a wait
    // into the next window would prove nothing. Its budget is set aside first.
    await budget.reserve('main', 1);
    const burst = await provokeLimit({
      send: () => {
        const route = nextRoute();
        return http.get(route.path, { query: route.query, auth, pace: false, expect429: true });
      },
      ceiling: perKeyPerMinute,
      windowMs: windowSeconds * 1000,
      untilFresh: () => budget.untilFresh(auth),
      // The key's first use (finding its secret) spent one request of this window, and perhaps
      // the ones refused while the key propagated.
      ...(attempt === 1 && key.firstUse.accepted ? { prior: [key.firstUse.accepted], refusedPrior: key.firstUse.refused } : {}),
    });
    if (!burst.first429) {
      // The main key's probe is not sent: its request set aside is given back, or the pacer would
      // hold the main key's first request of a new window for an answer that never comes.
      await budget.release('main', 1);
      // Past the ceiling over several routes with no 429: RATE-3's finding. A budget kept per route,
      // or by the account on some routes only (a plan metered on the data routes), may still refuse
      // a burst on one route, and whether that throttles another key is RATE-6's: once, afresh.
      if (burst.judgement.kind === 'lax' && !crossed && routes.length > 1) {
        crossed = burst;
        await untilForgotten(burst.responses);
        continue;
      }
      return { key, burst: crossed ?? burst, exhausting: burst, main: null, again: null, recovery: null, mainRefusals };
    }
    // Timed from the 429 at once: a Retry-After of 0 must be tried at once, not after RATE-6's probes.
    const recovery = recover(t, auth, burst.first429);
    // Not awaited here: RATE-5 collects it. A rejection must not go unhandled meanwhile.
    recovery.catch(() => undefined);
    const main = await probe('main');
    const againSentAt = suiteNow();
    const again = { res: await probe(auth), sentAt: againSentAt };
    // The created key's window may have ended meanwhile (a short window, a loaded machine): then
    // nothing was shown about the main key, and the key is exhausted again in a fresh window.
    const rolledOver = again.res.status !== 429 && !withinWindowOf(burst.first429, again);
    // The main key may be shared (two CI jobs, other clients of the deployment): one 429 on it can
    // be someone else's spending. A limit that is not per key refuses it on every attempt.
    const mainRefused = again.res.status === 429 && main.status === 429;
    if (mainRefused) mainRefusals++;
    if ((rolledOver || mainRefused) && attempt < EXHAUSTION_ATTEMPTS) {
      const recovered = await recovery.catch(() => null);
      if (mainRefused) await budget.untilFresh('main');
      await untilForgotten([again.res, ...(recovered && 'res' in recovered ? [recovered.res] : [])]);
      continue;
    }
    return { key, burst: crossed ?? burst, exhausting: burst, main, again, recovery, mainRefusals };
  }
}

/** When the last of these requests was answered, on the suite's clock. */
function lastEndOf(responses: readonly HttpResponse[]): number {
  return Math.max(0, ...responses.map((res) => endedAt(res.exchange)));
}

/** Exhaustions tried when the window ends before the main key could be tried alongside. */
const EXHAUSTION_ATTEMPTS = 3;

/** Timers fire a little late or early; a whole window is waited out with this to spare. */
const FRESH_SLACK_MS = 20;

/**
 * Whether a request sent after a 429 provably fell in the window the 429 named: where both answers
 * name their window (X-RateLimit-Reset), the target says whether it is the same; else the request
 * left a whole second before Retry-After ran out. The target's word comes first: on a loaded
 * machine a request sent at once may reach it seconds later, in a window of its own (a blind
 * implementation at 1-s windows, Retry-After 2, answered a request sent within the second with the
 * Reset 5 s on).
 */
export function withinWindowOf(refused: { res: HttpResponse; at: number }, later: { res: HttpResponse; sentAt: number }): boolean {
  const h = rateHeaders(refused.res.headers);
  const laterReset = rateHeaders(later.res.headers).reset;
  if (h.reset !== null && laterReset !== null) return laterReset === h.reset;
  return h.retryAfter !== null && later.sentAt - refused.at < (h.retryAfter - 1) * 1000;
}

/**
 * How much of a key's budget may have come back by the time `later` was answered, after the burst
 * that exhausted it, whatever way the target counts (the window is not stated): a sliding log
 * forgets each request a window after it counted it, so no request sent less than a window before
 * `later` was answered; a token bucket refills at the ceiling a window, from no sooner than the
 * 429's sending. A fixed window that ends gives the whole budget back, and names another Reset.
 * On a loaded machine at one-second windows a burst may span most of a window: a sliding log
 * (the blind Node implementation's) then has half its budget back at the same Reset, rightly.
 */
export function mayHaveComeBack(exhaustion: Pick<Exhaustion, 'key' | 'burst'>, later: HttpResponse, ceiling: number, windowMs: number): number {
  const { burst, key } = exhaustion;
  if (!burst.first429) return ceiling;
  const answered = endedAt(later.exchange);
  const counted = [...burst.attempt, ...(key.firstUse.accepted ? [key.firstUse.accepted] : [])].filter((res) => res.status !== 429);
  const forgotten = counted.filter((res) => Date.parse(res.exchange.startedAt) < answered - windowMs).length;
  const refilled = Math.floor(((answered - Date.parse(burst.first429.res.exchange.startedAt)) * ceiling) / windowMs);
  return Math.max(forgotten, refilled);
}

/** Waits exactly what the 429's Retry-After says (plus transit slack), then tries the key again. */
async function recover(t: CheckContext, auth: { key: string; kind: 'created' }, first429: { res: HttpResponse; at: number }): Promise<Recovery> {
  const retryAfter = rateHeaders(first429.res.headers).retryAfter;
  if (retryAfter === null) return { skip: 'the 429 carried no Retry-After in whole seconds to wait for' };
  const longest = t.profile.limits.windowSeconds + RESET_SKEW_SECONDS;
  if (retryAfter > longest) return { skip: `Retry-After says ${retryAfter} s, more than one window of ${t.profile.limits.windowSeconds} s: not waited for` };
  const slackMs = transitSlackMs(t.run.baseUrl);
  await sleep(first429.at + retryAfter * 1000 + slackMs - suiteNow());
  const res = await t.sharedHttp.get(PROBE.path, { query: PROBE.query, auth, pace: false, expect429: true });
  return { res, waitedS: retryAfter };
}

/** A target on this machine answers within milliseconds; a remote one needs slack for transit. */
function transitSlackMs(baseUrl: string): number {
  return isLoopback(baseUrl) ? 15 : 250;
}

/** Numbers a message states, for "a message that states the wait in seconds". */
export function numbersIn(message: string): number[] {
  return [...message.matchAll(/\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
}
