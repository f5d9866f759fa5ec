import { check, rateHeaders } from '../src/kit.js';
import { resentIn } from './support/bursts.js';
import { first429Of } from './support/limits.js';
import { burstRoutes, describeRoute, exhausted, mayHaveComeBack, numbersIn, withinWindowOf } from './support/exhaustion.js';

// RATE: the limit per key (API document, Limits). RATE-1/2/8/9 are judged over every response of
// the run (suites/run-wide.suite.ts), RATE-4, RATE-5 and RATE-7 by suites/ip-limits.suite.ts; this
// suite exhausts a key on purpose (suites/support/exhaustion.ts) and judges its 429 and the main
// key beside it. It runs beside KEY (src/check/suite-order.ts): its key is its own, and it sends
// nothing without a valid key. RATE-5 awaits the exhausted key's Retry-After in the phase after,
// so that the wait overlaps RATE-7's instead of holding this phase up.

check(
  'RATE-3',
  "the request past a key's ceiling is 429 rate_limit_error, rate_limit_exceeded, param null, stating the wait",
  async (t) => {
    const { key, burst, again } = await exhausted(t);
    const ceiling = t.profile.limits.perKeyPerMinute;
    const res = first429Of(t, burst, `on a new key (GET ${burstRoutes(t).map(describeRoute).join(', ')} in turn)`, ceiling);
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
    // that refills as it goes (a token bucket, a sliding log: the window is not stated) may take
    // another request a moment later, with as much left as may have come back since
    // (`mayHaveComeBack`); more than that, within the window the 429 named, is the fault.
    const exhaustion = { key, burst };
    const remainingAgain = again ? rateHeaders(again.res.headers).remaining : null;
    const back = again ? mayHaveComeBack(exhaustion, again.res, ceiling, t.profile.limits.windowSeconds * 1000) : ceiling;
    const restored = remainingAgain === null ? back < 1 : remainingAgain > back;
    if (again && again.res.status !== 429 && restored) {
      t.ensure(
        !withinWindowOf(burst.first429!, again),
        () =>
          `the key was accepted again (${again.res.status}) right after its 429, within the window the 429 named (Retry-After ${retryAfter ?? 'none'}, X-RateLimit-Reset ${rateHeaders(res.headers).reset ?? 'none'}), ${
            remainingAgain === null
              ? 'though none of its budget could have come back since, however it is kept'
              : `with ${remainingAgain} left, where at most ${back} could have come back since, however it is kept`
          }`,
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
    const { exhausting: burst, main, again, mainRefusals } = await exhausted(t);
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
    // A key nobody else knows, refused before its own ceiling, spends a budget shared with others;
    // unless the suite itself sent some of the burst twice (`resentIn`).
    const { judgement } = burst;
    const resent = resentIn(burst);
    if (judgement.kind === 'early' && resent > 0) {
      t.skip(
        `the created key was refused after ${judgement.accepted} requests of its ceiling, but the burst sent ${resent} of its requests again, the API having given no answer to the first sending, which the target may still have counted`,
      );
    }
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
