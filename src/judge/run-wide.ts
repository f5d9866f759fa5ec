import type { ClauseId } from '../clauses/catalogue.js';
import { apiPathOf } from '../http/api-path.js';
import { describeRequest, endedAt, fromApi, type Exchange } from '../http/exchange.js';
import { httpAnswerOf, isHttpAnswer, owesJsonBody } from '../http/http-answers.js';
import { rateHeaders } from '../http/rate-headers.js';
import { RESET_MARGIN_SECONDS, readReset } from '../http/reset-reading.js';
import { dateOf, serverClockOf } from '../http/server-clock.js';
import { DOCUMENT_LIMITS, type Profile } from '../profile/profile.js';
import { schemaErrors, type SchemaName } from '../schemas.js';
import { deletedKeys } from '../keys/deleted-keys.js';
import { KEY_PROPAGATION_MS } from '../keys/identify.js';
import { beyondChance, type SecretShape } from '../secrets/chance.js';
import { SECRET_PART_LENGTH } from '../secrets/redactor.js';
import { collections } from '../target/collections.js';
import { DOCUMENTED_TYPES, errorOf, TYPES_BY_STATUS, WRITE_ONLY_TYPES } from './errors.js';
import { ownKeyRemaining } from './own-key-remaining.js';
import { sampleSubmissionsCreated } from './sample-submissions.js';

/** One response of the run that breaks a clause, and why. */
export interface Violation {
  readonly reason: string;
  readonly exchange: Exchange;
}

/** `revealed`: the shape of each secret the target revealed, in the order `Exchange.leaks` names them (KEY-4). */
export type Judge = (log: readonly Exchange[], profile: Profile, revealed: readonly SecretShape[]) => Violation[];

/**
 * Clauses that judge a response to a malformed request whoever sent it: a 5xx (but a gateway's
 * 502/503/504, the surroundings' answer to any request) and a leaked secret are findings even
 * from a front end. Every other judge sees only requests that are well-formed HTTP, which reach
 * the API itself (see `Exchange.frontEndFragile`).
 */
const ANY_RESPONDER: ReadonlySet<ClauseId> = new Set(['GEN-3', 'KEY-4']);

/**
 * The exchanges a run-wide clause judges: never a front end's 502/503/504 to a well-formed
 * request (the surroundings are not the API, `Exchange.answeredBy`; the judges read responses
 * only, so an attempt that met a transport failure is passed over too), and what the run sent
 * malformed on purpose only for the clauses of any responder.
 */
export function judgedBy(clause: ClauseId, log: readonly Exchange[]): readonly Exchange[] {
  // A secret in a response is a leak whoever sent the response.
  if (clause === 'KEY-4') return log;
  // A gateway's 502/503/504 says nothing of the request, malformed or not: never judged, even by GEN-3.
  const ofApi = log.filter((e) => e.response === undefined || fromApi(e));
  return ANY_RESPONDER.has(clause) ? ofApi : ofApi.filter((e) => !e.frontEndFragile);
}

/**
 * GEN-5: `application/json`, or a structured syntax suffix `+json` (RFC 6839: `application/hal+json`,
 * `application/problem+json`), with any parameters.
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return /^application\/([\w.!#$&^-]+\+)?json\s*(;|$)/i.test(contentType?.trim() ?? '');
}

/**
 * Whose ceiling RATE-2 judged by: at the document's figure, the profile may simply not declare
 * limits, so the finding names the fact that states a deployment's own ceiling.
 */
function whoseCeiling(ceiling: number): string {
  return ceiling === DOCUMENT_LIMITS.perKeyPerMinute
    ? ` (the document's figure, which stands where the profile declares no limits: a deployment with a ceiling of its own states it in the profile's limits.perKeyPerMinute)`
    : " (the profile's limits.perKeyPerMinute)";
}

type Answered = Exchange & { response: NonNullable<Exchange['response']> };
/** Responses of the API (a front end's answer to a malformed request too, for the clauses of any responder: `judgedBy`). */
const answered = (log: readonly Exchange[]): Answered[] => log.filter((e): e is Answered => e.response !== undefined && fromApi(e));
/** A request with a key that was not refused: answered but a 401, or never answered (it may still have spent the key's budget). */
const authenticated = (e: Exchange) => ['main', 'other', 'created'].includes(e.auth) && e.response?.status !== 401;
/** Bodies parsed once for all the judges. */
const parsedBodies = new WeakMap<Exchange, unknown>();
const parsed = (e: Answered): unknown => {
  if (parsedBodies.has(e)) return parsedBodies.get(e);
  let value: unknown;
  try {
    value = JSON.parse(e.response.body);
  } catch {
    value = undefined;
  }
  parsedBodies.set(e, value);
  return value;
};
const isJsonObject = (text: string): boolean => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
};

/** A pair of sequential requests of a key, and the Remaining each was answered with. */
interface SequentialPair {
  readonly from: number;
  readonly to: number;
  readonly exchange: Exchange;
}

/**
 * How RATE-8 sorts a key's sequential pairs, each a kind a budget might wrongly leave uncounted:
 * the route of the later request (a limiter mounted on some routes only), and the answer the earlier
 * request got (a limiter that gives a failed request back once it is answered: express-rate-limit's
 * skipFailedRequests, where the Remaining a 404 shows is taken back before the next request).
 */
const RATE8_SAMPLES = {
  route: (_before: Answered, e: Answered) => routeOf(e),
  'earlier answer': (before: Answered) => `after a ${Math.floor(before.response.status / 100)}xx answer`,
} as const;

/** Share of sequential pairs whose Remaining did not fall, at most, for a budget kept precisely (a fixed window). */
const PRECISE_WINDOW_STUCK_SHARE = 0.05;

function append<T>(map: Map<string, T[]>, key: string, item: T): void {
  const list = map.get(key);
  if (list) list.push(item);
  else map.set(key, [item]);
}

/** Sequential pairs of a kind, at the least, that must all fall by one same amount above one before RATE-8 reads the kind as counted more than once. */
const OVERCOUNT_MIN_PAIRS = 4;

/** Share of the other kinds' pairs that fell by more than one, at most, for a key no other client shares. */
const OTHER_CLIENT_SHARE = 0.05;

/**
 * Kinds of request each of which took the same amount above one from the budget, while the other
 * kinds took one (almost) every time: a budget that counts a kind of request twice (a second
 * limiter mounted on the writes, over the same bucket). A kind is the later request's route and
 * the status it was answered: a limiter mounted behind a body parser never sees what the parser
 * refuses. Another client on the key, or a request of another of the run's threads handled out of
 * order, takes more now and then, on any route and by any amount; only a fall that is the same on
 * every pair of a kind, four times at the least, and seldom anywhere else, is judged. A budget that
 * refills (a token bucket, a sliding window) only makes falls smaller.
 */
function overcounted(pairs: readonly SequentialPair[]): Violation[] {
  const byKind = new Map<string, SequentialPair[]>();
  for (const pair of pairs) append(byKind, `${routeOf(pair.exchange)} answered ${pair.exchange.response!.status}`, pair);
  const fall = ({ from, to }: SequentialPair) => from - to;
  const uniform = [...byKind].filter(([, each]) => each.length >= OVERCOUNT_MIN_PAIRS && fall(each[0]!) > 1 && each.every((p) => fall(p) === fall(each[0]!)));
  const others = [...byKind].filter(([kind]) => !uniform.some(([same]) => same === kind)).flatMap(([, each]) => each);
  if (others.length < 20 || others.filter((p) => fall(p) > 1).length > others.length * OTHER_CLIENT_SHARE) return [];
  return uniform.flatMap(([kind, each]) =>
    each.map(({ from, to, exchange }) => ({
      reason: `X-RateLimit-Remaining went from ${from} to ${to} over a sequential request (${kind}) in the same window: every such request took ${from - to} from the budget, while other requests took one`,
      exchange,
    })),
  );
}

/** `GET /api/v1/picklists`: the method and the collection, the same for a list and its retrievals. */
function routeOf(e: Exchange): string {
  return `${e.request.method} ${apiPathOf(e.request.url).split('/').slice(0, 4).join('/')}`;
}

/** The items of a list page's body; none where the body is not the envelope (PAG-1 judges that). */
function itemsOf(e: Answered): readonly unknown[] {
  const items = (parsed(e) as { items?: unknown } | undefined)?.items;
  return Array.isArray(items) ? items : [];
}

/**
 * A request whose credential is no live key, served (2xx): whatever its method, path, headers or
 * the order it came in, the clause of what it carried is broken. Only the checks' requests: the
 * stage that looks for where keys are deleted uses a key it is not yet sure it deleted. Not
 * OPTIONS (a framework's CORS preflight answers before any route), nor a path outside the API's.
 */
function servedWithout(kind: 'none' | 'malformed' | 'invalid', carried: string): Judge {
  return (log) =>
    answered(log)
      .filter((e) => e.auth === kind && e.check !== undefined && e.request.method !== 'OPTIONS' && isApiPath(e.request.url))
      // A 304 serves too: it tells the representation is unchanged, and HTTP asks a server to ignore a
      // condition where the request would not have been answered 2xx without it (RFC 9110, 13.2.1).
      .filter((e) => (e.response.status >= 200 && e.response.status < 300) || e.response.status === 304)
      .map((e) => ({
        reason: `[${e.request.method}] ${apiPathOf(e.request.url)} with ${carried} was answered ${e.response.status}, expected 401`,
        exchange: e,
      }));
}

const isApiPath = (url: string): boolean => apiPathOf(url).startsWith('/api/v1/');

/**
 * Every item of every page of a collection's list the run read, whatever its page, limit, filters
 * or the check that asked: the document's fields and types (RES-1, RES-2, RES-3). A body cut short
 * for the log is not judged here; RES's own checks read their pages whole.
 */
function listedShaped(collection: 'workspaces' | 'governanceModels' | 'records', schema: SchemaName, what: string): Judge {
  return (log, profile) => {
    const list = collections(profile)[collection]?.list;
    if (!list) return [];
    return answered(log)
      .filter((e) => e.request.method === 'GET' && e.response.status === 200 && !e.response.truncated && apiPathOf(e.request.url) === list)
      .flatMap((e) => {
        for (const [index, item] of itemsOf(e).entries()) {
          const problems = schemaErrors(schema, item);
          if (problems.length > 0)
            return [{ reason: `${what} ${index} of ${describeRequest(e)} does not match the document: ${problems.slice(0, 3).join('; ')}`, exchange: e }];
        }
        return [];
      });
  };
}

/**
 * KEY-6 over every key list the run read: no key whose deletion (2xx at the declared key path) had
 * been answered before the list was asked for is in it, whichever check deleted it or listed. A
 * list served from an index or a replica may show a deletion a moment late: the same allowance as
 * KEY-1 gives a new key (KEY_PROPAGATION_MS) passes before a list that shows the key is a finding.
 */
function deletedKeysListed(log: readonly Exchange[], profile: Profile): Violation[] {
  const { apiKey, apiKeyList } = profile.paths;
  const idField = profile.apiKeyFields.id;
  if (!apiKey || !apiKeyList || !idField) return [];
  const deletedAt = deletedKeys(log, apiKey);
  if (deletedAt.size === 0) return [];
  return answered(log)
    .filter((e) => e.request.method === 'GET' && e.response.status === 200 && !e.response.truncated && apiPathOf(e.request.url) === apiKeyList)
    .flatMap((e) => {
      const asked = Date.parse(e.startedAt);
      const listed = itemsOf(e)
        .map((item) => (item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[idField] : undefined))
        .find((id) => typeof id === 'string' && (deletedAt.get(id) ?? Infinity) + KEY_PROPAGATION_MS < asked);
      return listed === undefined
        ? []
        : [
            {
              reason: `the key list still shows key ${String(listed)}, whose deletion was answered more than ${KEY_PROPAGATION_MS / 1000} s before the list was asked for`,
              exchange: e,
            },
          ];
    });
}

/**
 * KEY-4: the responses that hold a part of a secret revealed before, where together they show a
 * leak. Runs of 8 characters that chance alone explains (an id of hex digits that shares 8 with a
 * key of hex digits) are no finding: `secrets/chance.ts` weighs them against every run of the
 * secrets' characters the run's responses held.
 */
function secretsShown(log: readonly Exchange[], _profile: Profile, revealed: readonly SecretShape[]): Violation[] {
  // A log of an earlier version names no runs: each is taken for the shortest part, the likeliest by chance.
  const matchesOf = (e: Exchange) => (e.leaks ?? []).map((secret, i) => ({ secret, run: e.leakRuns?.[i] ?? SECRET_PART_LENGTH }));
  const leaking = log.filter((e) => (e.leaks?.length ?? 0) > 0);
  const matches = leaking.flatMap(matchesOf);
  const responses = log.filter((e): e is Answered => e.response !== undefined);
  const texts = function* () {
    for (const e of responses) {
      yield e.response.body;
      yield Object.values(e.response.headers).join('\n');
    }
  };
  // A body cut short for the log: each character not kept may start a run of its own.
  const unread = responses.reduce((sum, e) => sum + (e.response.truncated ? Math.max(0, e.response.bytes - e.response.body.length) : 0), 0);
  if (!beyondChance(matches, revealed, texts, unread)) return [];
  const shown = (e: Exchange) => {
    const found = matchesOf(e);
    const whole = found.some(({ secret, run }) => run >= (revealed[secret]?.part ?? Infinity));
    return whole ? 'its whole secret' : `${Math.max(...found.map((m) => m.run))} consecutive characters of its secret`;
  };
  return leaking.map((e) => ({ reason: `a response after the key was created contains ${shown(e)}`, exchange: e }));
}

/** Clauses judged over every exchange of the run, after the suites. */
export const RUN_WIDE_JUDGES = {
  'KEY-6': deletedKeysListed,
  'RES-1': listedShaped('workspaces', 'workspace', 'workspace'),
  'RES-2': listedShaped('governanceModels', 'governance-model', 'governance model'),
  'RES-3': listedShaped('records', 'record', 'record'),
  'SUB-1': sampleSubmissionsCreated,
  'AUTH-1': servedWithout('none', 'no Authorization header'),
  'AUTH-2': servedWithout('malformed', 'a malformed Authorization header'),
  'AUTH-3': servedWithout('invalid', 'an unknown or revoked key'),
  'GEN-1': (log) =>
    answered(log)
      .filter((e) => owesJsonBody(e) && e.response.json !== 'ok')
      .map((e) => ({
        reason:
          httpAnswerOf(e)?.problem ??
          `the ${e.response.status} body is not JSON (${e.response.headers['content-type'] ?? 'no Content-Type'})${e.response.jsonProblem ? `: ${e.response.jsonProblem}` : ''}`,
        exchange: e,
      })),

  'GEN-3': (log) =>
    answered(log)
      .filter((e) => e.response.status >= 500)
      .map((e) => ({ reason: `a request was answered ${e.response.status}`, exchange: e })),

  'GEN-5': (log) =>
    answered(log)
      .filter((e) => e.response.json === 'ok' && !isJsonMediaType(e.response.headers['content-type']))
      .map((e) => ({ reason: `a JSON body is labelled ${e.response.headers['content-type'] ?? '(no Content-Type)'}`, exchange: e })),

  'ERR-1': (log) =>
    answered(log)
      .filter((e) => e.response.status >= 400 && owesJsonBody(e))
      // The 401 for a missing or malformed header has a shape the document does not show; a
      // candidate for a new key that is not the key may be either kind of refusal.
      .filter((e) => !(e.response.status === 401 && (e.auth === 'none' || e.auth === 'malformed' || e.auth === 'candidate')))
      .flatMap((e) => {
        const problems = schemaErrors(e.response.status === 429 ? 'error-429' : 'error', parsed(e));
        return problems.length === 0
          ? []
          : [{ reason: `the ${e.response.status} body is not the error envelope: ${problems.slice(0, 3).join('; ')}`, exchange: e }];
      }),

  'ERR-2': (log) =>
    answered(log).flatMap((e) => {
      const error = errorOf(parsed(e));
      // The 400's type is not shown (Errors, rule 1): any type may stand there.
      if (!error || e.response.status < 400 || e.response.status === 400) return [];
      if (!(DOCUMENTED_TYPES as readonly string[]).includes(error.type)) {
        return [{ reason: `error type "${error.type}" is not one of the document's types`, exchange: e }];
      }
      const allowed = TYPES_BY_STATUS[e.response.status];
      if (allowed && !allowed.includes(error.type)) {
        return [{ reason: `status ${e.response.status} carries type "${error.type}", expected ${allowed.join(' or ')}`, exchange: e }];
      }
      return [];
    }),

  'ERR-4': (log) =>
    answered(log).flatMap((e) => {
      const error = errorOf(parsed(e));
      if (e.response.status !== 422 || error?.type !== 'invalid_request_error') return [];
      // A body that is no JSON object has no parameter to name: param null is a reading too. So
      // has a body refused for its Content-Type (none, or not JSON: general rule 3 asks for
      // application/json), whatever it holds: the header is at fault, not a parameter.
      if (e.request.body !== undefined && (!isJsonObject(e.request.body) || !isJsonMediaType(e.request.headers['content-type']))) return [];
      return typeof error.param === 'string' && error.param !== ''
        ? []
        : [{ reason: 'a 422 invalid_request_error does not name the offending input in param', exchange: e }];
    }),

  'ERR-6': (log) =>
    answered(log).flatMap((e) => {
      const error = errorOf(parsed(e));
      if (!['GET', 'HEAD'].includes(e.request.method) || !error) return [];
      return (WRITE_ONLY_TYPES as readonly string[]).includes(error.type)
        ? [{ reason: `a read-only request was answered with type "${error.type}"`, exchange: e }]
        : [];
    }),

  'PAG-1': (log, profile) => {
    const lists = Object.values(collections(profile))
      .map((c) => c.list)
      .filter((path): path is string => typeof path === 'string');
    const isList = (url: string) => {
      const path = new URL(url).pathname;
      return lists.some((list) => path === list || path.endsWith(list));
    };
    return (
      answered(log)
        // A body cut short for the log cannot be judged here; the pagination suite judges those pages whole.
        .filter((e) => e.request.method === 'GET' && e.response.status === 200 && !e.response.truncated && isList(e.request.url))
        .flatMap((e) => {
          const problems = schemaErrors('envelope', parsed(e));
          return problems.length === 0 ? [] : [{ reason: `the list response is not the pagination envelope: ${problems.slice(0, 3).join('; ')}`, exchange: e }];
        })
    );
  },

  'KEY-4': secretsShown,

  'RATE-1': (log) =>
    answered(log)
      // HTTP's answer to a range, a condition or a negotiation may come from a front end or a cache, without the API's headers.
      .filter((e) => authenticated(e) && !isHttpAnswer(e))
      .flatMap((e) => {
        const h = rateHeaders(e.response.headers);
        const headers = [
          ['X-RateLimit-Limit', h.limit],
          ['X-RateLimit-Remaining', h.remaining],
          ['X-RateLimit-Reset', h.reset],
        ] as const;
        const sent = (name: string) => e.response.headers[name.toLowerCase()] !== undefined;
        // Headers sent are integers whatever the status.
        const malformed = headers.filter(([name, value]) => value === null && sent(name)).map(([name]) => name);
        if (malformed.length > 0)
          return [
            {
              reason: `an authenticated ${e.response.status} carries ${malformed.join(', ')} not as ${malformed.length === 1 ? 'an integer' : 'integers'}`,
              exchange: e,
            },
          ];
        // "Responses generally": on every answer, or as a rule, an error aside (nginx's add_header
        // writes them on successes alone). Both readings ask them of a success; a 429's are RATE-4's.
        const missing = headers.filter(([name]) => !sent(name)).map(([name]) => name);
        return missing.length === 0 || e.response.status >= 400
          ? []
          : [{ reason: `an authenticated ${e.response.status} lacks ${missing.join(', ')}`, exchange: e }];
      }),

  'RATE-2': (log, profile) => {
    const clock = serverClockOf(log);
    const { perKeyPerMinute, unauthenticatedPerMinute } = profile.limits;
    // A 429 naming the per-IP ceiling is the per-IP budget's answer: the target counted the request
    // before it took the key (one it does not know yet, or no longer), as it may count a failed
    // credential (RATE-7). Its headers are that budget's, not the key's.
    const perIp = (e: Answered) =>
      e.response.status === 429 && unauthenticatedPerMinute !== perKeyPerMinute && rateHeaders(e.response.headers).limit === unauthenticatedPerMinute;
    return answered(log)
      .filter((e) => authenticated(e) && !perIp(e))
      .flatMap((e) => {
        const h = rateHeaders(e.response.headers);
        const ceiling = profile.limits.perKeyPerMinute;
        const reasons: string[] = [];
        if (h.limit !== null && h.limit !== ceiling) reasons.push(`X-RateLimit-Limit is ${h.limit}, the per-key ceiling is ${ceiling}${whoseCeiling(ceiling)}`);
        if (h.remaining !== null && h.limit !== null && h.remaining > h.limit)
          reasons.push(`X-RateLimit-Remaining ${h.remaining} exceeds the limit ${h.limit}`);
        if (/^\s*-\d+\s*$/.test(e.response.headers['x-ratelimit-remaining'] ?? ''))
          reasons.push(`X-RateLimit-Remaining is negative (${e.response.headers['x-ratelimit-remaining']!.trim()})`);
        if (h.reset !== null) {
          // Judged against every reasonable reading of the target's time: its Date may lag, never lead.
          const reading = readReset(h.reset, e, clock, profile.limits.windowSeconds);
          const against = dateOf(e.response.headers) === null ? "the suite's clock, moved by the run's Date headers" : 'the Date headers of the run';
          if (reading.kind === 'too-far-ahead')
            reasons.push(
              `X-RateLimit-Reset ${h.reset} is ${Math.round(reading.aheadS)} s ahead of the target's time, more than one window of ${profile.limits.windowSeconds} s and ${RESET_MARGIN_SECONDS} s besides (read against ${against}): not a Unix time in seconds`,
            );
          else if (reading.kind === 'past')
            reasons.push(
              `X-RateLimit-Reset ${h.reset} lies ${Math.round(reading.behindS)} s before the target's time (more than ${RESET_MARGIN_SECONDS} s, read against ${against}): not the Unix time the window resets`,
            );
        }
        return reasons.length === 0 ? [] : [{ reason: reasons.join('; '), exchange: e }];
      });
  },

  'RATE-8': (log, profile) => {
    // Only a Reset that is a Unix time near the response (on the target's clock) tells two windows apart (RATE-2 judges the rest).
    const clock = serverClockOf(log);
    const plausible = (e: Answered, reset: number) => readReset(reset, e, clock, profile.limits.windowSeconds).kind === 'unix-time';
    const last = new Map<string, Answered>();
    // Pairs of sequential requests of a key in one window where Remaining did not fall, and
    // whether it fell anywhere. A sliding window or a token bucket gives budget back between two
    // requests (how the window is kept is not stated), and a key used sparsely may find its bucket
    // full every time: only a Remaining that falls for no key of the run is the fault.
    // The budget is per key for all authenticated requests, whatever their route and whatever they
    // were answered: the pairs are sorted by each of RATE8_SAMPLES, and a kind of pair whose
    // Remaining never falls, while the others' does, is a budget that does not count that kind.
    const kinds = Object.keys(RATE8_SAMPLES) as (keyof typeof RATE8_SAMPLES)[];
    const tallies = new Map(
      kinds.map((kind) => [kind, { stuck: new Map<string, SequentialPair[]>(), fellOn: new Set<string>(), pairsOn: new Map<string, number>() }]),
    );
    const pairs: SequentialPair[] = [];
    // Overlapping requests may be handled in either order; the clock alone cannot tell (ms rounding).
    const sequential = (before: Exchange, e: Exchange) => !before.overlapped && !e.overlapped && endedAt(before) <= Date.parse(e.startedAt);
    for (const e of answered(log).filter(authenticated)) {
      const before = last.get(e.bucket);
      last.set(e.bucket, e);
      if (!before) continue;
      const a = rateHeaders(before.response.headers);
      const b = rateHeaders(e.response.headers);
      if (!sequential(before, e) || a.remaining === null || b.remaining === null || a.reset === null || a.reset !== b.reset || e.response.status === 429)
        continue;
      if (!plausible(before, a.reset)) continue;
      const pair = { from: a.remaining, to: b.remaining, exchange: e };
      pairs.push(pair);
      for (const kind of kinds) {
        const { stuck, fellOn, pairsOn } = tallies.get(kind)!;
        const part = RATE8_SAMPLES[kind](before, e);
        // Another client on the key may take more (`overcounted` judges that); a Remaining that does not fall at all is the fault.
        pairsOn.set(part, (pairsOn.get(part) ?? 0) + 1);
        if (b.remaining >= a.remaining) append(stuck, part, pair);
        else fellOn.add(part);
      }
    }
    // Worded once the whole log is read: whether Remaining fell anywhere is known only then.
    const violations = (part: string, pairs: readonly SequentialPair[], anywhere: boolean): Violation[] =>
      pairs.map(({ from, to, exchange }) => ({
        reason: `X-RateLimit-Remaining went from ${from} to ${to} over a sequential request (${part}) in the same window, and never fell for ${anywhere ? 'such a request while it did for others' : 'any key of the run'}`,
        exchange,
      }));
    // On a key only the run holds, a Remaining that rose by more than could have come back (a key
    // counted in two budgets), or fell by less than a run of sequential requests spent, less what
    // could have come back (requests counted late).
    const counted = new Map<Exchange, Violation>(ownKeyRemaining(log.filter(authenticated), profile, sequential, plausible).map((v) => [v.exchange, v]));
    const route = tallies.get('route')!;
    if (route.fellOn.size === 0) {
      const stuck = [...route.stuck].flatMap(([part, pairs]) => violations(part, pairs, false));
      return stuck.concat([...counted.values()].filter((v) => !stuck.some((s) => s.exchange === v.exchange)));
    }
    const flagged = new Map<Exchange, Violation>(counted);
    for (const v of overcounted(pairs)) flagged.set(v.exchange, v);
    for (const kind of kinds) {
      const { stuck, fellOn, pairsOn } = tallies.get(kind)!;
      // A kind stuck twice or more and never seen falling, where every other kind falls (almost)
      // every time: a budget that refills between requests (a token bucket, a sliding window) leaves
      // sparse kinds stuck by chance, and is not judged kind by kind. The stuck pairs come from two
      // checks at the least: one check sends its requests together, at one moment of the budget's
      // life, and a sliding log whose requests of a window before leave it one by one then leaves
      // them all stuck (the pairs' HEAD reads, a kind no other check sends).
      const total = [...pairsOn.values()].reduce((x, y) => x + y, 0);
      const allStuck = [...stuck.values()].reduce((x, y) => x + y.length, 0);
      for (const [part, pairs] of stuck) {
        const othersPairs = total - (pairsOn.get(part) ?? 0);
        const othersStuck = allStuck - pairs.length;
        const checks = new Set(pairs.map(({ exchange }) => exchange.check)).size;
        if (fellOn.has(part) || pairs.length < 2 || checks < 2 || othersPairs < 20 || othersStuck > othersPairs * PRECISE_WINDOW_STUCK_SHARE) continue;
        for (const v of violations(part, pairs, true)) if (!flagged.has(v.exchange)) flagged.set(v.exchange, v);
      }
    }
    return [...flagged.values()];
  },

  'RATE-9': (log) =>
    answered(log)
      .filter((e) => e.response.status !== 429 && e.response.headers['retry-after'] !== undefined)
      .map((e) => ({ reason: `a ${e.response.status} carries Retry-After`, exchange: e })),
} as const satisfies Partial<Record<ClauseId, Judge>>;

export type RunWideClause = keyof typeof RUN_WIDE_JUDGES;
