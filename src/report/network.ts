import { fromApi, type Exchange, type RetryCause } from '../http/exchange.js';

/**
 * What the network between the suite and the API did during a run: the attempts sent again and
 * why, the transport failures, the answers of a front end. The surroundings, not the API: none of
 * it is judged, all of it is counted where the verdict is read (`conformance.json`'s `network`,
 * the terminal, `summary.md`, `report.html`, JUnit properties).
 */
export interface NetworkFigures {
  /** Requests the run meant to send (first attempts). */
  readonly requests: number;
  /** Attempts sent again, in all and by why. */
  readonly retries: number;
  readonly retriesBy: Readonly<Record<RetryCause, number>>;
  /** Attempts that met a transport failure (no complete response), in all and the common kinds. */
  readonly transportFailures: number;
  readonly resets: number;
  readonly refused: number;
  readonly timeouts: number;
  /** Attempts a front end answered (502, 503, 504) instead of the API. */
  readonly frontEndAnswers: number;
  /** Requests the API never answered, even after their retries: their checks are `error`. */
  readonly unanswered: number;
  /** Share of requests sent more than once, from 0 to 1. */
  readonly retriedShare: number;
  /** The share is high enough to say the target (or its network) is unstable. */
  readonly unstable: boolean;
}

/** At this share of requests sent again, the report says the target is unstable. */
export const UNSTABLE_SHARE = 0.05;

export function networkOf(log: readonly Exchange[]): NetworkFigures {
  const retriesBy: Record<RetryCause, number> = { '429': 0, transport: 0, 'front-end': 0 };
  /** Attempts sent again later: not their request's last. */
  const superseded = new Set<number>();
  /** Each attempt's first attempt, through its chain of `retryOf`. */
  const firstOf = new Map<number, number>();
  const retriedRequests = new Set<number>();
  for (const e of log) {
    if (e.retryOf === undefined) {
      if (e.seq !== undefined) firstOf.set(e.seq, e.seq);
      continue;
    }
    retriesBy[e.retryCause ?? '429']++;
    superseded.add(e.retryOf);
    const first = firstOf.get(e.retryOf) ?? e.retryOf;
    if (e.seq !== undefined) firstOf.set(e.seq, first);
    retriedRequests.add(first);
  }
  const retries = retriesBy['429'] + retriesBy.transport + retriesBy['front-end'];
  const requests = log.length - retries;
  const failed = log.filter((e) => e.failure !== undefined);
  const kind = (k: string) => failed.filter((e) => e.failure!.kind === k).length;
  const retriedShare = requests === 0 ? 0 : retriedRequests.size / requests;
  return {
    requests,
    retries,
    retriesBy,
    transportFailures: failed.length,
    resets: kind('reset'),
    refused: kind('refused'),
    timeouts: kind('timeout'),
    frontEndAnswers: log.filter((e) => e.response !== undefined && !fromApi(e)).length,
    unanswered: log.filter((e) => !(e.seq !== undefined && superseded.has(e.seq)) && unansweredAttempt(e)).length,
    retriedShare: Math.round(retriedShare * 10_000) / 10_000,
    unstable: retriedShare >= UNSTABLE_SHARE,
  };
}

/** No response of the API at all: refused, reset before a response, a front end's answer (timeouts and cut bodies are the API's). */
function unansweredAttempt(e: Exchange): boolean {
  if (e.response !== undefined) return !fromApi(e);
  return e.failure !== undefined && ['refused', 'dns', 'tls', 'reset'].includes(e.failure.kind);
}

/** One line for the terminal and `summary.md`; a second when the target is unstable. */
export function networkLines(n: NetworkFigures): string[] {
  if (n.retries === 0 && n.transportFailures === 0 && n.frontEndAnswers === 0) {
    return [`network: all ${n.requests} requests answered by the API at the first attempt (no retry, no transport failure, no front-end answer)`];
  }
  const sentAgain =
    n.retries === 0
      ? 'no request was sent again'
      : `${n.retries} attempt(s) sent again (${n.retriesBy.transport} after a transport failure, ${n.retriesBy['front-end']} after a front end's 502/503/504, ${n.retriesBy['429']} after an unplanned 429)`;
  const failures =
    n.transportFailures === 0
      ? 'no transport failure'
      : `${n.transportFailures} transport failure(s) (${[`${n.resets} reset`, `${n.refused} refused`, `${n.timeouts} timed out`].join(', ')})`;
  const lines = [`network: ${sentAgain}; ${failures}; ${n.frontEndAnswers} front-end answer(s); ${n.unanswered} request(s) the API never answered`];
  if (n.unstable) {
    lines.push(
      `the target is unstable: ${(n.retriedShare * 100).toFixed(1)} % of its requests had to be sent again (the network or a front end, not the API's answers)`,
    );
  }
  return lines;
}

/** The figures as JUnit `<property>` pairs. */
export function networkProperties(n: NetworkFigures): [string, string][] {
  return [
    ['network.requests', String(n.requests)],
    ['network.retries', String(n.retries)],
    ['network.retries.transport', String(n.retriesBy.transport)],
    ['network.retries.front-end', String(n.retriesBy['front-end'])],
    ['network.retries.429', String(n.retriesBy['429'])],
    ['network.transportFailures', String(n.transportFailures)],
    ['network.resets', String(n.resets)],
    ['network.refused', String(n.refused)],
    ['network.timeouts', String(n.timeouts)],
    ['network.frontEndAnswers', String(n.frontEndAnswers)],
    ['network.unanswered', String(n.unanswered)],
    ['network.retriedShare', String(n.retriedShare)],
    ['network.unstable', String(n.unstable)],
  ];
}
