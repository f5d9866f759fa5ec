import { check, sleep, type CheckContext, type HttpResponse, isLoopback, RESET_SKEW_SECONDS, rateHeaders, type UsableKey } from '../src/kit.js';
import { provokeLimit, type BurstResult } from './support/bursts.js';
import { first429Of, PROBE } from './support/limits.js';

// RATE: the limit per key (API document, Limits). RATE-1/2/8/9 are judged over every response of
// the run (suites/run-wide.suite.ts), RATE-4 and RATE-7 by suites/ip-limits.suite.ts; this suite
// provokes a key's limit on purpose.
//
// One key is created for the purpose and exhausted once, so that the main key keeps its budget,
// by a burst over several list routes in turn (the budget is the key's, whatever the route); the
// checks share that one exhaustion (whichever runs first provokes it). The wait RATE-5 needs runs
// in the background while RATE-6 proceeds, and the suite runs beside KEY (src/check/suite-order.ts):
// its key is its own, and it sends nothing without a valid key.

/**
 * The cheap reads a key's exhausting burst takes in turn: the document's lists and the profile's
 * key list, one item a page. The budget is per key "for all authenticated requests" (API document,
 * Limits), so a burst spread over routes meets its 429 at the same ceiling as one on a single path;
 * a budget kept per route lets it run on.
 */
function burstRoutes(t: CheckContext): string[] {
  const routes = ['/api/v1/workspaces', '/api/v1/governance_models', '/api/v1/records', t.profile.paths.apiKeyList];
  return [...new Set(routes.filter((route): route is string => route !== null))];
}

/** The exhaustion of the created key, and what was seen right after it. */
interface Exhaustion {
  readonly key: UsableKey;
  readonly burst: BurstResult;
  /** RATE-6: the main key, sent right after the created key's first 429. */
  readonly main: HttpResponse | null;
  /** The created key again, right after: still refused within the window its 429 named. */
  readonly again: { readonly res: HttpResponse; readonly sentAt: number } | null;
  /** RATE-5: the created key once the 429's Retry-After has passed (started in the background). */
  readonly recovery: Promise<Recovery> | null;
  /** RATE-6: attempts on which the main key was refused while the created key was. */
  readonly mainRefusals: number;
}

type Recovery = { readonly res: HttpResponse; readonly waitedS: number } | { readonly skip: string };

/** Exhausts a created key once per run; every RATE check that needs it awaits the same result. */
function exhausted(t: CheckContext): Promise<Exhaustion> {
  return t.once('exhaustion', () => exhaust(t));
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
  const nextRoute = () => routes[sent++ % routes.length]!;
  let mainRefusals = 0;
  for (let attempt = 1; ; attempt++) {
    // The main key's probe must not wait for the pacer once the created key is refused: a wait
    // into the next window would prove nothing. Its budget is set aside first.
    await budget.reserve('main', 1);
    const burst = await provokeLimit({
      send: () => http.get(nextRoute(), { query: PROBE.query, auth, pace: false, expect429: true }),
      ceiling: perKeyPerMinute,
      windowMs: windowSeconds * 1000,
      untilFresh: () => budget.untilFresh(auth),
      // The key's first use (finding its secret) spent one request of this window.
      ...(attempt === 1 && key.firstUse.accepted ? { prior: [key.firstUse.accepted] } : {}),
    });
    if (!burst.first429) return { key, burst, main: null, again: null, recovery: null, mainRefusals };
    // Timed from the 429 at once: a Retry-After of 0 must be tried at once, not after RATE-6's probes.
    const recovery = recover(t, auth, burst.first429);
    // Not awaited here: RATE-5 collects it. A rejection must not go unhandled meanwhile.
    recovery.catch(() => undefined);
    const main = await probe('main');
    const againSentAt = Date.now();
    const again = { res: await probe(auth), sentAt: againSentAt };
    // The created key's window may have ended meanwhile (a short window, a loaded machine): then
    // nothing was shown about the main key, and the key is exhausted again in a fresh window.
    const rolledOver = again.res.status !== 429 && !withinWindowOf(burst.first429, again);
    // The main key may be shared (two CI jobs, other clients of the deployment): one 429 on it can
    // be someone else's spending. A limit that is not per key refuses it on every attempt.
    const mainRefused = again.res.status === 429 && main.status === 429;
    if (mainRefused) mainRefusals++;
    if ((rolledOver || mainRefused) && attempt < EXHAUSTION_ATTEMPTS) {
      await recovery.catch(() => undefined);
      await budget.untilFresh(auth);
      if (mainRefused) await budget.untilFresh('main');
      continue;
    }
    return { key, burst, main, again, recovery, mainRefusals };
  }
}

/** Exhaustions tried when the window ends before the main key could be tried alongside. */
const EXHAUSTION_ATTEMPTS = 3;

/**
 * Whether a request sent after a 429 provably fell in the window the 429 named: the target says
 * so (the same X-RateLimit-Reset), or it left a whole second before Retry-After ran out.
 */
function withinWindowOf(refused: { res: HttpResponse; at: number }, later: { res: HttpResponse; sentAt: number }): boolean {
  const h = rateHeaders(refused.res.headers);
  const sameWindow = h.reset !== null && rateHeaders(later.res.headers).reset === h.reset;
  return sameWindow || (h.retryAfter !== null && later.sentAt - refused.at < (h.retryAfter - 1) * 1000);
}

/** Waits exactly what the 429's Retry-After says (plus transit slack), then tries the key again. */
async function recover(t: CheckContext, auth: { key: string; kind: 'created' }, first429: { res: HttpResponse; at: number }): Promise<Recovery> {
  const retryAfter = rateHeaders(first429.res.headers).retryAfter;
  if (retryAfter === null) return { skip: 'the 429 carried no Retry-After in whole seconds to wait for' };
  const longest = t.profile.limits.windowSeconds + RESET_SKEW_SECONDS;
  if (retryAfter > longest) return { skip: `Retry-After says ${retryAfter} s, more than one window of ${t.profile.limits.windowSeconds} s: not waited for` };
  const slackMs = transitSlackMs(t.run.baseUrl);
  await sleep(first429.at + retryAfter * 1000 + slackMs - Date.now());
  const res = await t.sharedHttp.get(PROBE.path, { query: PROBE.query, auth, pace: false, expect429: true });
  return { res, waitedS: retryAfter };
}

/** A target on this machine answers within milliseconds; a remote one needs slack for transit. */
function transitSlackMs(baseUrl: string): number {
  return isLoopback(baseUrl) ? 15 : 250;
}

/** Numbers a message states, for "a message that states the wait in seconds". */
function numbersIn(message: string): number[] {
  return [...message.matchAll(/\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
}

check(
  'RATE-3',
  "the request past a key's ceiling is 429 rate_limit_error, rate_limit_exceeded, param null, stating the wait",
  async (t) => {
    const { burst, again } = await exhausted(t);
    const ceiling = t.profile.limits.perKeyPerMinute;
    const res = first429Of(t, burst, `on a new key (GET ${burstRoutes(t).join(', ')} in turn)`, ceiling);
    const error = (t.json(res) as { error?: Record<string, unknown> } | null)?.error;
    t.ensure(error && typeof error === 'object', 'the 429 body has no error object', res);
    t.ensure(error!.type === 'rate_limit_error', () => `the 429 has type ${JSON.stringify(error!.type)}, not "rate_limit_error"`, res);
    t.ensure(error!.code === 'rate_limit_exceeded', () => `the 429 has code ${JSON.stringify(error!.code)}, not "rate_limit_exceeded"`, res);
    t.ensure(error!.param === null, () => `the 429 has param ${JSON.stringify(error!.param)}, not null`, res);
    const message = typeof error!.message === 'string' ? error!.message : '';
    const retryAfter = rateHeaders(res.headers).retryAfter;
    const stated = numbersIn(message);
    t.ensure(stated.length > 0, () => `the 429 message states no wait in seconds: ${JSON.stringify(message)}`, res);
    if (retryAfter !== null) {
      t.ensure(
        stated.some((n) => Math.abs(n - retryAfter) <= 1),
        () => `the 429 message ${JSON.stringify(message)} states no wait within 1 s of Retry-After ${retryAfter}`,
        res,
      );
    }
    // Past the ceiling means past it for the rest of the window, not for one request. A budget
    // that refills as it goes (a token bucket: the window is not stated) may take one more request
    // a moment later, with next to nothing left; a whole budget back at once is the fault.
    const remainingAgain = again ? rateHeaders(again.res.headers).remaining : null;
    const restored = remainingAgain === null || remainingAgain >= ceiling / 2;
    if (again && again.res.status !== 429 && restored) {
      t.ensure(
        !withinWindowOf(burst.first429!, again),
        () =>
          `the key was accepted again (${again.res.status}) right after its 429, within the window the 429 named (Retry-After ${retryAfter ?? 'none'}, X-RateLimit-Reset ${rateHeaders(res.headers).reset ?? 'none'})`,
        res,
        again.res,
      );
    }
  },
  { key: 'ceiling-with-key', values: ['boundary'], writes: true },
);

check(
  'RATE-6',
  'exhausting a created key does not throttle the main key',
  async (t) => {
    const { burst, main, again, mainRefusals } = await exhausted(t);
    if (!burst.first429 || !main || !again) t.skip('no 429 was provoked on the created key');
    const refused = burst.first429!.res;
    const stillRefused = again!.res.status === 429;
    t.ensure(
      !(stillRefused && main!.status === 429),
      () =>
        `the main key was answered 429 while another key of the account was exhausted${mainRefusals > 1 ? ` (seen on ${mainRefusals} exhaustions, the main key's window waited out between them)` : ''}: the limit is not per key`,
      refused,
      main!,
    );
    // A key nobody else knows, refused before its own ceiling, spends a budget shared with others.
    const { judgement } = burst;
    t.ensure(
      judgement.kind !== 'early',
      () =>
        `a key created moments ago was refused after ${judgement.kind === 'early' ? judgement.accepted : '?'} requests of its ceiling of ${t.profile.limits.perKeyPerMinute}: its budget is shared with other keys`,
      refused,
    );
    if (!stillRefused) {
      t.skip(
        withinWindowOf(burst.first429!, again!)
          ? 'the created key was accepted again right after its 429 (RATE-3): it was not kept exhausted'
          : "the created key's window ended before the main key was tried",
      );
    }
  },
  { key: 'created-key-apart', judges: ['RATE-3'], values: ['boundary'], writes: true },
);

check(
  'RATE-5',
  'after waiting what Retry-After says, the exhausted key works again',
  async (t) => {
    const done = await exhausted(t);
    try {
      if (!done.recovery) t.skip('no 429 was provoked on the created key');
      const recovery = await done.recovery!;
      if ('skip' in recovery) return t.skip(recovery.skip);
      const { res, waitedS } = recovery;
      t.ensure(
        res.status >= 200 && res.status < 300,
        () => `after waiting the ${waitedS} s Retry-After said, the key was answered ${res.status}${res.status === 429 ? ': still refused' : ''}`,
        done.burst.first429!.res,
        res,
      );
    } finally {
      await t.keys.delete(done.key).catch(() => undefined);
    }
  },
  { key: 'retry-after-honoured', judges: ['RATE-3'], values: ['boundary'], writes: true, concurrent: true },
);
