import { check, collections, errorOf, fillPath, fromApi, httpAnswerOf, owesJsonBody, type CheckContext, type ClauseId, type HttpResponse } from '../src/kit.js';
import { REQUEST_HEADERS, type HeaderEntry } from './catalogues/request-headers.js';
import { headerCases, type HeaderCase } from './explorer/header-cover.js';
import { JUDGED_BY, TRANSPORTS, type Carrying } from './catalogues/transports.js';
import { sendTransports } from './explorer/transports.js';
import { exploreKeys, type KeyExploration } from './explorer/explore-keys.js';
import { EXPLORER_KEYS } from './explorer/key-model.js';

// The explorer: sequences of operations and requests generated from catalogues of what varies
// (suites/catalogues/, suites/explorer/), judged by models of what the document allows and by the
// run-wide judges, which see every exchange it makes. A bug shows wherever it is, not only where a
// probe written by hand happens to stand. It runs in the keys lane after KEY (src/check/suite-order.ts),
// so that no other check creates or deletes keys between its steps.

// Sequences drawn beyond the cover: `--explore`, by default a share of the property budget (`exploreBudget`).
const keyExploration = (t: CheckContext): Promise<KeyExploration> => t.onceForRun('key explorer', () => exploreKeys(t, t.run.explore));

/** A clause's share of the exploration: its disagreement fails it; where another clause's ended the exploration early, it was not judged whole. */
async function judgeExplored(t: CheckContext, clause: ClauseId): Promise<void> {
  const { disagreements, cut, sequences, explored } = await keyExploration(t);
  // Every report lists what was explored, a pass included: a pass says which sequences showed nothing.
  t.noteExplored(explored);
  const mine = disagreements.find((d) => d.clause === clause);
  if (mine) t.failReplayable(`${mine.reason}, in the sequence ${mine.replay.counterexample}`, mine.replay, ...mine.evidence);
  if (cut)
    t.skip(
      `the explorer stopped at a disagreement (${disagreements.map((d) => `a ${d.clause} finding`).join(', ')}) after ${sequences} sequence(s): the sequences it was to draw were not explored`,
    );
}

// The exploration is shared: whichever of these checks starts it creates its keys, and says at most how many.
const EXPLORED = { writes: true, concurrent: true, states: ['fresh', 'used', 'used to write', 'deleted'], keys: EXPLORER_KEYS } as const;

check(
  'KEY-1',
  'every key the explorer creates, after any order of creations, uses and deletions by any key of the account, authenticates and keeps working until deleted',
  (t) => judgeExplored(t, 'KEY-1'),
  { key: 'explored-lifecycle', ...EXPLORED },
);

check(
  'KEY-5',
  'every key the explorer deletes, by the default actor, another key or itself, is refused at once and for good',
  (t) => judgeExplored(t, 'KEY-5'),
  { key: 'explored-lifecycle', ...EXPLORED },
);

check('KEY-3', 'every key the explorer holds live is in the key list, whatever sequence came before', (t) => judgeExplored(t, 'KEY-3'), {
  key: 'explored-lifecycle',
  ...EXPLORED,
});

check('KEY-6', 'no key the explorer deleted is in the key list, whatever sequence came before', (t) => judgeExplored(t, 'KEY-6'), {
  key: 'explored-lifecycle',
  ...EXPLORED,
});

/** Every list and retrieval the run knows (with a listed id), but the keys' own: the endpoints the header catalogue is sent to. */
function readEndpoints(t: CheckContext): { lists: string[]; items: string[] } {
  const known = t.run.preflight.collections;
  const endpoints = Object.values(collections(t.profile));
  return {
    lists: endpoints.flatMap((endpoint) => (endpoint.list !== null ? [endpoint.list] : [])),
    items: endpoints.flatMap((endpoint) => {
      const id = known[endpoint.name]?.ids[0];
      return endpoint.item && id !== undefined ? [fillPath(endpoint.item, id)] : [];
    }),
  };
}

/** Requests of the header catalogue in flight at once. */
const HEADER_LANES = 4;

type HeaderAnswer = { readonly label: string; readonly res: HttpResponse };

/** Sends `cases` on HEADER_LANES lanes; the answers in the cases' order, not the order they came in. */
async function sendHeaders(t: CheckContext, cases: readonly HeaderCase<HeaderEntry>[]): Promise<HeaderAnswer[]> {
  const answers: HeaderAnswer[] = [];
  let next = 0;
  const lane = async () => {
    while (next < cases.length) {
      const index = next++;
      const { entry, path } = cases[index]!;
      answers[index] = { label: `[GET] ${path} with ${entry.name}`, res: await t.http.get(path, { query: { limit: 1 }, headers: entry.headers }) };
    }
  };
  await Promise.all(Array.from({ length: HEADER_LANES }, lane));
  return answers;
}

check(
  'GEN-1',
  'every list and retrieval answers JSON whatever the request headers HTTP defines ask for (content negotiation, conditions, ranges, overrides, caching)',
  async (t) => {
    const entries = REQUEST_HEADERS.filter((entry) => !(entry.writes && t.run.readOnly));
    const { cover, rest } = headerCases(entries, readEndpoints(t), t.run.seed);
    // Kept in the cases' order: the first finding is the same on every run of a seed.
    const answers = await sendHeaders(t, cover);
    await t.onPool(async () => void answers.push(...(await sendHeaders(t, rest))));
    // A 204 or 304 has no content, and an answer HTTP gives what the request asked (a 206 to a range,
    // a 412, a 406) is judged by HTTP's rules, as the run-wide GEN-1 does (src/http/http-answers.ts).
    const notJson = answers.filter(({ res }) => owesJsonBody(res.exchange) && res.exchange.response?.json !== 'ok');
    if (notJson.length === 0) return;
    const [first] = notJson;
    const more = notJson.length > 1 ? ` (and ${notJson.length - 1} more)` : '';
    const why =
      httpAnswerOf(first!.res.exchange)?.problem ?? `the ${first!.res.status} body is not JSON (${first!.res.headers['content-type'] ?? 'no Content-Type'})`;
    t.fail(`${first!.label}: ${why}${more}`, ...notJson.slice(0, 3).map((a) => a.res));
  },
  { key: 'request-headers', concurrent: true },
);

// The transports catalogue: what came before on the wire, or beside it, changes no answer. Each
// check sends the entries that feed its clause, so that its requests are its own in the estimates.
for (const [carrying, clause] of Object.entries(JUDGED_BY) as [Exclude<Carrying, 'a live key'>, ClauseId][]) {
  check(
    clause,
    `a request with ${carrying} on a connection a live key used just before is refused 401 all the same`,
    async (t) => {
      const entries = TRANSPORTS.filter((e) => e.shape.kind === 'one connection' && e.shape.steps.includes(carrying));
      const answers = (await sendTransports(t, entries)).filter((a) => a.carrying === carrying);
      // AUTH-3 asks the error envelope's type too; AUTH-1 and AUTH-2 a 401 (AUTH-7 judges their body).
      const typed = clause === 'AUTH-3';
      const refused = (res: HttpResponse) => res.status === 401 && (!typed || errorOf(res.json)?.type === 'authentication_error');
      const served = answers.find((a) => fromApi(a.res.exchange) && !refused(a.res));
      if (!served) return;
      const type = typed ? ` with type ${JSON.stringify(errorOf(served.res.json)?.type ?? null)}` : '';
      t.fail(`${served.label}: answered ${served.res.status}${type}, expected 401${typed ? ' authentication_error' : ''}`, served.res);
    },
    { key: 'one-connection', concurrent: true },
  );
}

check(
  'GEN-3',
  'requests of one key in flight at once are each answered as alone: never a 5xx',
  async (t) => {
    const answers = await sendTransports(
      t,
      TRANSPORTS.filter((e) => e.shape.kind === 'at once'),
    );
    const failed = answers.filter((a) => fromApi(a.res.exchange) && a.res.status >= 500);
    if (failed.length > 0)
      t.fail(
        `${failed[0]!.label}: answered ${failed[0]!.res.status} (${failed.length} of ${answers.length} answered 5xx)`,
        ...failed.slice(0, 3).map((a) => a.res),
      );
  },
  { key: 'in-flight-at-once', concurrent: true },
);
