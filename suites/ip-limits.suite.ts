import {
  check,
  failedCredential,
  fromApi,
  type CheckContext,
  type HttpResponse,
  RESET_SKEW_SECONDS,
  rateHeaders,
  serverClockOf,
  serverTimeOf,
  sleep,
  suiteNow,
  type Exchange,
  trustedPeer,
} from '../src/kit.js';
import { provokeLimit, resentIn, type BurstResult } from './support/bursts.js';
import { sharedWindow } from './support/shared-window.js';
import { first429Of, PROBE } from './support/limits.js';
import { exhausted } from './support/exhaustion.js';
import { CLIENT_ADDRESS_HEADERS, type HeaderEntry } from './catalogues/request-headers.js';

// RATE, the limit per IP address (API document, Limits), the exhausted key's Retry-After, and every
// 429 of the run. It runs alone, after every suite that sends requests without a key or with a
// failed credential (src/check/suite-order.ts): RATE-7 counts the run's earlier requests without a
// key in the window still open, or first waits for a window that holds none of them and no failed
// credential, so that no check expecting a 401 meets the 429s it provokes, and the only requests
// with a valid key beside its burst are its own. RATE-5 awaits, meanwhile, the Retry-After of the
// key suites/rate-limits.suite.ts exhausted in the phase before; RATE-4 then judges every 429.

/** The run's requests that `kind` keeps, sent in the window before the burst's first 429 (the log's, from this IP). */
async function sentBefore429(t: CheckContext, burst: BurstResult, windowMs: number, kind: (e: Exchange) => boolean): Promise<number> {
  if (!burst.first429) return 0;
  const { at } = burst.first429;
  return (await t.log()).filter((e) => kind(e) && Date.parse(e.startedAt) >= at - windowMs && Date.parse(e.startedAt) <= at).length;
}

/** Failed credentials the run sent in the window before the burst's first 429. */
function failedCredentialsBefore(t: CheckContext, burst: BurstResult, windowMs: number): Promise<number> {
  return sentBefore429(t, burst, windowMs, (e) => failedCredential(e) && fromApi(e));
}

/** A request of RATE-7's burst without a key, or after it: unpaced, its 429 planned. */
function pastCeiling(t: CheckContext, headers: Readonly<Record<string, string>> = {}): Promise<HttpResponse> {
  return t.http.get(PROBE.path, { query: PROBE.query, auth: 'none', pace: false, expect429: true, headers });
}

/**
 * Right after the burst's 429, each request header that names another client address
 * (suites/catalogues/request-headers.ts) on two requests without a key, one address each, then the
 * same request without it: the first header served both times while the last is still refused.
 * Null where none was, or where the last was served too (the window ended meanwhile: nothing to judge).
 */
async function namingAnotherAddress(t: CheckContext): Promise<{ entry: HeaderEntry; served: HttpResponse[]; control: HttpResponse } | null> {
  const send = (headers?: Readonly<Record<string, string>>) => pastCeiling(t, headers);
  const answers: { entry: HeaderEntry; res: HttpResponse[] }[] = [];
  for (const entry of CLIENT_ADDRESS_HEADERS) answers.push({ entry, res: [await send(entry.headers), await send(entry.secondAddress)] });
  const control = await send();
  if (control.status !== 429) return null;
  const servedEach = (res: readonly HttpResponse[]) => res.every((r) => fromApi(r.exchange) && r.status !== 429 && r.status < 500);
  const named = answers.find(({ res }) => servedEach(res));
  return named ? { entry: named.entry, served: named.res, control } : null;
}

/** A request of the run's with a valid key that reached the API: a front end's 503 or a refused connection spent nothing. */
function validKey(e: Exchange): boolean {
  return (e.auth === 'main' || e.auth === 'other' || e.auth === 'created') && fromApi(e) && e.response!.status !== 401;
}

/** The first 429 of a burst and the answer before it: a finding's evidence. */
function around429(burst: BurstResult): HttpResponse[] {
  const at = burst.first429 ? burst.attempt.indexOf(burst.first429.res) : -1;
  return at === -1 ? [] : burst.attempt.slice(Math.max(0, at - 1), at + 1);
}

/** Requests with the valid key that RATE-7 sends in the window of its burst without a key. */
const VALID_KEY_REQUESTS = 3;

check(
  'RATE-7',
  'the request past the ceiling without a key in one window is 429 rate_limit_error with Retry-After',
  async (t) => {
    const ceiling = t.profile.limits.unauthenticatedPerMinute;
    // Only a budget untouched by the run proves the count (checks expecting 401 ran before). The
    // per-IP budget may also count failed credentials (clause catalogue): a window free of those
    // too is one where an early 429 has no excuse but requests with a valid key.
    // A few requests with the valid key open the window: they must not count (a target that
    // counts them meets the 429 early, which is then a finding).
    const fresh = async () => {
      await t.budget.untilNoFailedCredential();
      await t.budget.untilFresh('none');
      for (let i = 0; i < VALID_KEY_REQUESTS; i++) await t.http.get(PROBE.path, { query: PROBE.query });
    };
    const windowMs = t.profile.limits.windowSeconds * 1000;
    const provoke = (prior: readonly HttpResponse[], uncertain = 0, untilFresh = fresh) =>
      provokeLimit({
        send: () => pastCeiling(t),
        ceiling,
        windowMs,
        untilFresh,
        prior,
        refusedPrior: uncertain,
      });
    // The control: a window that holds no request of the run's but the burst's, neither a failed
    // credential nor a valid key's, however the target keeps its windows (fixed or sliding): a
    // whole window after the last of them.
    const freshAlone = async () => {
      await t.budget.untilNoFailedCredential();
      const lastValid = Math.max(0, ...(await t.log()).filter(validKey).map((e) => Date.parse(e.startedAt)));
      await sleep(Math.max(0, lastValid + windowMs - suiteNow()));
      await t.budget.untilFresh('none');
    };
    // One window without a key for the whole run: the run's earlier requests without a key (AUTH-1's
    // and the like), where the target names their window, count toward the burst, which sends only
    // the rest, instead of waiting a whole window for a budget of its own.
    const shared = sharedWindow(await t.log(), windowMs, suiteNow());
    let burst = shared ? await provoke(shared.prior, shared.uncertain) : null;
    // A target may count failed credentials against the per-IP budget (clause catalogue): a 429 they
    // can explain proves nothing, and the burst is made again in a window free of them. Those sent
    // during the burst count too: a check running beside it may send one (a revoked key's 401).
    if (!burst || (burst.judgement.kind === 'early' && (shared!.failed > 0 || (await failedCredentialsBefore(t, burst, windowMs)) > 0))) {
      await fresh();
      burst = await provoke([]);
    }
    // At once, while the budget is spent: a request naming another client address must meet the same 429.
    const named = burst.judgement.kind === 'limited' ? await namingAnotherAddress(t) : null;
    if (burst.judgement.kind === 'early' && burst.first429 && (await failedCredentialsBefore(t, burst, windowMs)) > 0) {
      t.skip(
        'each burst without a key met its 429 early in a window where the run also sent failed credentials, which a target may count against the per-IP budget',
      );
    }
    const resent = resentIn(burst);
    if (burst.judgement.kind === 'early' && burst.first429 && resent > 0) {
      t.skip(
        `the burst without a key met its 429 after ${burst.judgement.accepted} of ${ceiling} requests, but sent ${resent} of them again, the API having given no answer to the first sending, which the target may still have counted`,
      );
    }
    // The shortfall, against what the run itself sent with a valid key in that window: if those
    // requests explain it, they may have been counted. More than they explain is another client's doing.
    const explained = async (judged: BurstResult): Promise<{ missing: number; ownValid: number } | null> => {
      if (judged.judgement.kind !== 'early' || !judged.first429) return null;
      const ownValid = await sentBefore429(t, judged, windowMs, validKey);
      const missing = ceiling - judged.judgement.accepted;
      return missing <= ownValid ? { missing, ownValid } : null;
    };
    if (await explained(burst)) {
      // Another client on this IP (a second run, CI runners behind one NAT) spends the same budget
      // now and then, and its requests cannot be told from ours counted. So the valid key's part is
      // confirmed: a burst alone in its window (or beside no more of ours than explain its shortfall)
      // is not early, and one after the valid requests falls short by no more than they explain once again.
      const first = burst;
      await freshAlone();
      const alone = await provoke([], 0, freshAlone);
      if (alone.judgement.kind === 'early' && !(await explained(alone)))
        t.skip(
          `the burst without a key met its 429 early, and so did a burst alone in a window of its own (after ${alone.judgement.accepted} of ${ceiling}): another client spends this IP address's budget (a second run, machines behind one NAT), so the count cannot be judged`,
        );
      await fresh();
      const again = await provoke([]);
      const second = await explained(again);
      // What the control showed, in words that say no more than it did.
      const control =
        alone.judgement.kind === 'early'
          ? `a burst with no more of the run's valid requests in its window than explain its shortfall fell short as well`
          : 'a burst alone in its window reached the ceiling';
      if (second && resentIn(again) === 0)
        t.fail(
          `a 429 came after only ${ceiling - second.missing} of ${ceiling} requests without Authorization, in two windows where the run sent no failed credential from this IP and ${second.ownValid} requests with a valid key, while ${control}: the requests with a valid key were counted against the per-IP budget`,
          ...around429(first),
          ...around429(again),
        );
      burst = again;
    }
    const res = first429Of(t, burst, 'without Authorization', ceiling);
    const error = (res.json as { error?: { type?: unknown } } | undefined)?.error;
    t.ensure(error?.type === 'rate_limit_error', () => `the 429 without a key has type ${JSON.stringify(error?.type)}, not "rate_limit_error"`, res);
    // Its presence is RATE-7's; its form (whole seconds) RATE-4's, which judges every 429 of the run.
    t.ensure(res.headers['retry-after'] !== undefined, () => 'the 429 without a key carries no Retry-After', res);
    // Where the target may take the suite for its own front end (on loopback, on a private network),
    // a forwarding header it believes is a deployment's right reading, not a fault: not judged.
    if (named && (await trustedPeer(t.run.baseUrl)) === null)
      t.fail(
        `right after the per-IP budget was spent, two requests without a key carrying ${named.entry.name} (one address each) were answered ${named.served.map((r) => r.status).join(' and ')}, while the same request without it was still refused (429): the budget counts an address the client names, which lets any client escape it`,
        res,
        ...named.served,
        named.control,
      );
  },
  // A read-only run provokes no 429 (src/http/client.ts). The wait for a fresh budget without a
  // key and RATE-5's for the Retry-After overlap.
  { key: 'ceiling-without-key', values: ['boundary'], applies: (run) => (run.readOnly ? 'read-only' : true), concurrent: true },
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
        done.exhausting.first429!.res,
        res,
      );
    } finally {
      await t.keys.delete(done.key).catch(() => undefined);
    }
  },
  { key: 'retry-after-honoured', judges: ['RATE-3'], values: ['boundary'], writes: true, concurrent: true },
);

check(
  'RATE-4',
  'every 429 of the run carries Retry-After in whole seconds and the three X-RateLimit headers',
  async (t) => {
    // The created key was exhausted in the phase before (suites/rate-limits.suite.ts), and RATE-7's
    // burst is done: whatever 429s the run met are judged.
    const log = await t.log();
    const refused = log.filter((e) => e.response?.status === 429);
    if (refused.length === 0) t.skip('the run provoked no 429');
    const clock = serverClockOf(log);
    for (const e of refused) {
      const headers = e.response!.headers;
      const retryAfter = headers['retry-after'];
      t.ensure(retryAfter !== undefined, 'a 429 carries no Retry-After', e);
      t.ensure(/^\s*\d+\s*$/.test(retryAfter!), () => `a 429 carries Retry-After ${JSON.stringify(retryAfter)}, not whole seconds`, e);
      const h = rateHeaders(headers);
      // Seconds, not milliseconds: a wait beyond both the window and the Reset it came with is no
      // wait of this window (a count in milliseconds passes the digits rule by itself).
      const untilReset = h.reset === null ? 0 : h.reset - serverTimeOf(e, clock) / 1000;
      const longest = Math.max(t.profile.limits.windowSeconds, untilReset) + RESET_SKEW_SECONDS;
      t.ensure(
        h.retryAfter === null || h.retryAfter <= longest,
        () =>
          `a 429 carries Retry-After ${h.retryAfter}, longer than the window of ${t.profile.limits.windowSeconds} s and the ${Math.max(0, Math.ceil(untilReset))} s its X-RateLimit-Reset names: not a wait in seconds`,
        e,
      );
      const missing = [
        h.limit === null && 'X-RateLimit-Limit',
        h.remaining === null && 'X-RateLimit-Remaining',
        h.reset === null && 'X-RateLimit-Reset',
      ].filter(Boolean);
      t.ensure(missing.length === 0, () => `a 429 lacks integer ${missing.join(', ')}`, e);
    }
  },
  { key: 'every-429', judges: 'run' },
);
