import { endedAt, failedCredential, fromApi, serverClockOf, type Exchange, type HttpResponse } from '../../src/kit-judging.js';
import { stepOf } from './bursts.js';

/** What RATE-7's burst starts from: the per-IP window as the run's earlier requests left it. */
export interface SharedWindow {
  /** The requests without a key the target counts in the window still open. */
  readonly prior: HttpResponse[];
  /** Requests without a key the target may count or not (see `sharedWindow`). */
  readonly uncertain: number;
  /** Failed credentials sent since the window opened, which the per-IP budget may count. */
  readonly failed: number;
}

/**
 * The run's requests without a key (`log`) in the per-IP window still open at `now` (the suite's
 * clock), as the start of RATE-7's burst, and the failed credentials sent in it; null where the
 * target's answers without a key do not name their window (no plausible X-RateLimit-Reset on
 * each), so that nothing tells which of them count now: the burst then waits for a window of its
 * own. `uncertain`: those of the last window's time whose Reset differs from the last one's by less
 * than a window: the same window named a second apart (a Reset rounded from a time that moves), or
 * a window that slides, which counts every request of the last window whatever Reset each was
 * given. The target may count them or not: a 429 they can explain is not early.
 */
export function sharedWindow(log: readonly Exchange[], windowMs: number, now: number): SharedWindow | null {
  // Only what reached the API spent its budget: a front end's 503 or a refused connection did not.
  const withoutKey = log.filter((e) => e.auth === 'none' && fromApi(e));
  const last = withoutKey[withoutKey.length - 1];
  if (!last) return { prior: [], uncertain: 0, failed: 0 };
  const resetOf = (e: Exchange) => stepOf(asResponse(e), Date.parse(e.startedAt), endedAt(e), windowMs).reset;
  const reset = resetOf(last);
  if (reset === null) return null;
  // The Reset is on the target's clock: read on the suite's through the run's Date headers.
  const resetAt = serverClockOf(log).toSuite(reset * 1000);
  const open = resetAt > now;
  // The window the last of them fell in is over: the budget is whole, and none of them counts.
  const inWindow = open ? withoutKey.filter((e) => resetOf(e) === reset) : [];
  const lastWindow = now - windowMs;
  const uncertain = open
    ? withoutKey.filter((e) => {
        const other = resetOf(e);
        return other !== null && other !== reset && Math.abs(other - reset) * 1000 < windowMs && Date.parse(e.startedAt) >= lastWindow;
      })
    : [];
  // One of them refused: the run's own count of the window is already off.
  if ([...inWindow, ...uncertain].some((e) => e.response!.status === 429)) return null;
  const opened = open ? resetAt - windowMs : lastWindow;
  // A revoked key's 401 (KEY-5 walks every path with one) is a failed credential too.
  const failed = log.filter((e) => failedCredential(e) && fromApi(e) && Date.parse(e.startedAt) >= opened).length;
  return { prior: inWindow.map(asResponse), uncertain: uncertain.length, failed };
}

/** A logged exchange as a response of the burst (its status, headers and timing are what count). */
function asResponse(e: Exchange): HttpResponse {
  const body = e.response?.body ?? '';
  return { status: e.response!.status, headers: e.response!.headers, text: body, raw: Buffer.from(body), json: undefined, exchange: e };
}
