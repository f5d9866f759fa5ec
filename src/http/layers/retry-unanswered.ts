import { sleep as realSleep } from '../../sleep.js';
import { describeRequest, type RetryCause } from '../exchange.js';
import { TransportFailure } from '../failures.js';
import type { Layer } from '../layer.js';
import { isSafeMethod } from '../methods.js';
import type { HttpResponse, Outgoing } from '../request.js';
import { dateOf } from '../server-clock.js';
import { suiteNow, whileWaiting } from '../../clock.js';

/** Attempts after the first, for one request. */
const RETRIES = 3;
/** Back-off without a Retry-After: 0.5, 1, 2 s, so that a request gives up after some 3.5 s of waits. */
const FIRST_BACKOFF_MS = 500;
/** Between the retries of a rate-limit burst's request (`expect429`). */
const BURST_RETRY_MS = 50;
/** The longest Retry-After honoured: a deploy's pause, not a maintenance window. */
const MAX_RETRY_AFTER_MS = 10_000;

export interface RetryUnansweredOptions {
  /** @default 3 */
  readonly retries?: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * A request the API never answered is sent again, on a fresh connection (undici does not reuse
 * one that failed), after a back-off or the front end's Retry-After: a connection refused or a
 * host not found (nothing was sent), a reset before any byte of a response, or a front end's
 * 502/503/504 (`Exchange.answeredBy`). Every attempt is its own exchange in the log, naming the
 * one it sends again (`retryOf`, `retryCause`). What stays unanswered after the retries is
 * thrown as a `TransportFailure` (kind `front-end` for a front end's answer), which makes the
 * check `error`, never `fail`. A 500 is the API's answer: judged, never retried.
 *
 * A write is sent again only where nothing can have been created: no connection was made, or a
 * front end answered 503, which it gives when it has no upstream to forward to (RFC 9110,
 * 15.6.4). A reset, a 502 or a 504 may come after the API handled the request (a 504 is a front
 * end that stopped waiting): a key or submission may exist, and a second DELETE answers 404
 * where the first answered 204, so the check is `error` rather than guessed; unless the request
 * says a second sending is harmless (`resendable`: the teardown's deletions).
 */
export function retryUnanswered(options: RetryUnansweredOptions = {}): Layer {
  const retries = options.retries ?? RETRIES;
  const sleep = options.sleep ?? realSleep;
  return (next) => async (request) => {
    let attempt = request;
    for (let n = 0; ; n++) {
      let outcome: HttpResponse | TransportFailure;
      try {
        outcome = await next(attempt);
      } catch (error) {
        if (!(error instanceof TransportFailure)) throw error;
        outcome = error;
      }
      const cause = retryCauseOf(outcome, request);
      // A malformed request (a NUL in its URL) is judged for robustness whoever answers it (GEN-3),
      // but only once a gateway's 502/503/504, which says nothing of the request, had its retries.
      if (request.spec.frontEndFragile && !(outcome instanceof TransportFailure) && (cause === null || n >= retries)) return outcome;
      if (cause === null || n >= retries) return settle(outcome, n);
      const exchange = outcome instanceof TransportFailure ? outcome.exchange : outcome.exchange;
      // A burst meant to meet a 429 measures a window: waiting out a front end's Retry-After would
      // stretch it past its window, so its (bounded) retries follow at once.
      await whileWaiting(() => sleep(request.spec.expect429 ? BURST_RETRY_MS : delayMs(outcome, n)));
      attempt = { ...request, retryCause: cause, ...(exchange.seq !== undefined ? { retryOf: exchange.seq } : {}) };
    }
  };
}

/** Why `outcome` is worth sending again, or null when it is the answer (or cannot safely be sent again). */
export function retryCauseOf(outcome: HttpResponse | TransportFailure, request: Pick<Outgoing, 'method' | 'spec'>): RetryCause | null {
  const safe = isSafeMethod(request.method) || request.spec.resendable === true;
  if (outcome instanceof TransportFailure) {
    if (outcome.kind === 'refused' || outcome.kind === 'connect_timeout' || outcome.kind === 'dns') return 'transport';
    return outcome.kind === 'reset' && !outcome.responseStarted && safe ? 'transport' : null;
  }
  if (outcome.exchange.answeredBy !== 'front-end') return null;
  return safe || outcome.status === 503 ? 'front-end' : null;
}

/** The answer, or the failure it ends in: a front end's answer is no answer of the API. */
function settle(outcome: HttpResponse | TransportFailure, retried: number): HttpResponse {
  const after = retried > 0 ? ` (after ${retried} ${retried === 1 ? 'retry' : 'retries'})` : '';
  if (outcome instanceof TransportFailure) {
    if (retried === 0) throw outcome;
    throw new TransportFailure(outcome.kind, `${outcome.message}${after}`, outcome.exchange, { responseStarted: outcome.responseStarted });
  }
  if (outcome.exchange.answeredBy !== 'front-end') return outcome;
  throw new TransportFailure(
    'front-end',
    `${describeRequest(outcome.exchange)}: answered ${outcome.status}, a status absent from the API's error table, so taken for a front end's and never judged${after}`,
    outcome.exchange,
    { responseStarted: true },
  );
}

function delayMs(outcome: HttpResponse | TransportFailure, attempt: number): number {
  const backOff = FIRST_BACKOFF_MS * 2 ** attempt;
  if (outcome instanceof TransportFailure) return backOff;
  const retryAfter = retryAfterMs(outcome.headers);
  return retryAfter === null ? backOff : Math.min(retryAfter, MAX_RETRY_AFTER_MS);
}

/**
 * Retry-After as delay-seconds or an HTTP date (RFC 9110, 10.2.3); null when it is neither. A date
 * is a moment on the answering server's clock: the wait is its distance from the `Date` the same
 * answer carries (the suite's clock only where there is none).
 */
export function retryAfterMs(headers: Readonly<Record<string, string>>): number | null {
  const value = headers['retry-after'];
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - (dateOf(headers) ?? suiteNow()));
}
