import {
  check,
  collections,
  fillPath,
  fromApi,
  type CheckContext,
  type CollectionName,
  type Credential,
  type HttpResponse,
  SUBMISSION_CREATION_PATH,
} from '../src/kit.js';
import { oneCharacterChanged } from './catalogues/key-spellings.js';
import {
  meaningful,
  pairCost,
  PAIR_DIMENSIONS,
  PAIR_HEADERS,
  shownPairs,
  type LeftOut,
  type PairDimensions,
  type PairRow,
} from './catalogues/pair-dimensions.js';
import { REQUEST_HEADERS } from './catalogues/request-headers.js';
import { coveringArray, drawnBeyond, type CoveringArray } from './pairs/covering-array.js';
import { idsAs } from './support/cross-account.js';
import { recordIfCreated, tagged, taxonomyIds, workspaceIds } from './support/submissions.js';

// Every pair of what the run varies, visited in every run: a covering array of strength 2 over
// suites/catalogues/pair-dimensions.ts, drawn from the run's seed, each row one request. Its answers
// are judged as every answer of the run is, by the run-wide judges (a served request without a live
// key: AUTH-1, -2, -3; a 5xx: GEN-3; envelopes, items, headers), and here for what only the row
// knows: another account's object served (AUTH-6), a 5xx to a pair (GEN-3). A phase of its own
// (src/check/suite-order.ts), before the limit per IP address counts its failed credentials.

const OTHER = "another account's";
const OWN = "the actor's own";

/** One row sent: the row, how the request reads, and the answer. */
interface Visited {
  readonly row: PairRow;
  readonly label: string;
  readonly res: HttpResponse;
  /** Drawn at random beyond the pairs (`--explore`), not a row of the covering array. */
  readonly drawn: boolean;
}

interface PairsVisit {
  readonly visited: readonly Visited[];
  readonly array: CoveringArray<PairDimensions>;
  /** Rows drawn at random beyond the array: combinations of three values and more. */
  readonly beyond: number;
  readonly leftOut: readonly LeftOut[];
  /** Rows not sent, with why (the cap on submissions left no room). */
  readonly unsent: readonly string[];
}

/** What each account holds that a row may name, as the actor's own or another account's. */
interface Holdings {
  readonly items: readonly string[];
  readonly keys: readonly string[];
  readonly workspaces: readonly string[];
  readonly taxonomies: readonly string[];
}

const visitPairs = (t: CheckContext): Promise<PairsVisit> => t.onceForRun('pairs', () => visit(t));

async function visit(t: CheckContext): Promise<PairsVisit> {
  const { profile } = t;
  const all = collections(profile);
  const lists = Object.values(all).filter((c) => c.list !== null && c.name !== 'apiKeys');
  const known = (name: CollectionName) => t.run.preflight.collections[name]?.ids ?? [];
  const item = Object.values(all).find((c) => c.item !== null && c.name !== 'apiKeys' && c.name !== 'submissions' && known(c.name).length > 0) ?? null;
  const other = t.run.keys.other !== null;
  const idField = profile.apiKeyFields.id;
  const keyIds = (auth: 'main' | 'other') => (idField ? idsAs(t, profile.paths.apiKeyList, auth, idField) : Promise.resolve([]));
  const othersIds = (list: string | null) => (other ? idsAs(t, list, 'other') : Promise.resolve([]));
  const ownIds = (list: string | null) => idsAs(t, list, 'main');
  // The workspace and taxonomy a submission goes to first, then every other the main account lists.
  const withListed = async (first: readonly string[], list: string | null) => [...new Set([...first, ...(await ownIds(list))])];
  const mine: Holdings = {
    items: item ? [...new Set([...known(item.name), ...(await ownIds(item.list))])] : [],
    keys: await keyIds('main'),
    workspaces: await withListed(workspaceIds(t), all.workspaces.list),
    taxonomies: await withListed(taxonomyIds(t), all.taxonomies.list),
  };
  const theirs: Holdings = {
    items: item ? await othersIds(item.list) : [],
    keys: other ? await keyIds('other') : [],
    workspaces: await othersIds(all.workspaces.list),
    taxonomies: await othersIds(all.taxonomies.list),
  };
  const param = profile.submissions.workspaceQueryParam;
  const leftOut: LeftOut[] = [];
  const leave = (dimension: LeftOut['dimension'], value: string, why: string) => leftOut.push({ dimension, value, why });
  const noSecond = 'no second account (CONFORMANCE_OTHER_ACCOUNT_API_KEY)';
  if (!other) {
    leave('credential', "the other account's key", noSecond);
    for (const dimension of ['owner', 'workspace', 'taxonomy'] as const) leave(dimension, OTHER, noSecond);
  } else {
    if (theirs.items.length === 0 && theirs.keys.length === 0) leave('owner', OTHER, 'the other account shows no item of the retrieval and no key');
    if (theirs.workspaces.length === 0) leave('workspace', OTHER, 'the other account shows no workspace');
    if (theirs.taxonomies.length === 0) leave('taxonomy', OTHER, 'the other account shows no taxonomy');
  }
  if (lists.length === 0) leave('operation', 'list a collection', 'no list path');
  if (!item) leave('operation', 'retrieve an item', 'no retrieval path with a listed item (paths.workspace, paths.governanceModel, paths.record …)');
  if (!profile.paths.apiKeyList) leave('operation', 'list the keys', 'the key list path is not declared (paths.apiKeyList)');
  if (!profile.paths.apiKey?.includes('{id}') || mine.keys.length === 0)
    leave('operation', 'retrieve a key', 'the key path or the key id member is not declared (paths.apiKey, apiKeyFields.id), or the key list shows no key');
  if (t.run.readOnly) leave('operation', 'create a submission', 'a read-only run');
  else if (!param || mine.workspaces.length === 0 || mine.taxonomies.length === 0)
    leave('operation', 'create a submission', 'no workspace query parameter (submissions.workspaceQueryParam), workspace or taxonomy to submit to');
  const out = new Set(leftOut.map((gap) => `${gap.dimension}=${gap.value}`));
  const dimensions = Object.fromEntries(
    Object.entries(PAIR_DIMENSIONS).map(([name, values]) => [name, values.filter((value) => !out.has(`${name}=${value}`))]),
  ) as unknown as PairDimensions;
  const array = coveringArray(dimensions, meaningful, t.run.seed, shownPairs, pairCost);

  const visited: Visited[] = [];
  const unsent: string[] = [];
  const sendRow = async (row: PairRow, index: number, drawn: boolean): Promise<void> => {
    const actorsOwn = row.credential === "the other account's key" ? theirs : mine;
    const foreign = row.credential === "the other account's key" ? mine : theirs;
    // Another account's object by an id the actor has no object of: ids may be counted per account
    // ("1" in each), and the actor's own "1" served is no finding. None such: the row is not sent.
    let unnamed = false;
    const of = (owner: string, ids: (h: Holdings) => readonly string[]) => {
      if (owner !== OTHER) return ids(actorsOwn)[0] ?? '';
      const id = ids(foreign).find((candidate) => !ids(actorsOwn).includes(candidate));
      if (id === undefined) unnamed = true;
      return id ?? '';
    };
    const credential = credentialOf(t, row.credential);
    const headers = PAIR_HEADERS[row.header] ?? REQUEST_HEADERS.find((entry) => entry.name === row.header)?.headers ?? {};
    const pick = <T>(list: readonly T[]) => list[(t.run.seed + index) % list.length]!;
    let label: string;
    let send: () => Promise<HttpResponse | null>;
    if (row.operation === 'create a submission') {
      const workspace = of(row.workspace, (h) => h.workspaces);
      const body = {
        workspace_id: workspace,
        taxonomy_id: of(row.taxonomy, (h) => h.taxonomies),
        rows: row.rows === 'empty' ? [] : [{ data: tagged(t, (profile.submissions.sampleRow as Record<string, unknown> | null) ?? {}) }],
      };
      label = `[POST] ${SUBMISSION_CREATION_PATH}`;
      const post = async () => {
        const res = await t.http.send({ method: 'POST', path: SUBMISSION_CREATION_PATH, query: { [param!]: workspace }, body, auth: credential });
        await recordIfCreated(t, res);
        return res;
      };
      // The main key's own workspace and taxonomy: the target may create it, within the run's cap.
      send = createsOwn(row) ? () => t.submissions.create(post) : post;
    } else {
      const path =
        row.operation === 'list a collection'
          ? pick(lists).list!
          : row.operation === 'an unknown path'
            ? UNKNOWN_PATH
            : row.operation === 'list the keys'
              ? profile.paths.apiKeyList!
              : row.operation === 'retrieve a key'
                ? fillPath(
                    profile.paths.apiKey!,
                    of(row.owner, (h) => h.keys),
                  )
                : fillPath(
                    item!.item!,
                    of(row.owner, (h) => h.items),
                  );
      label = `[${row.method}] ${path}`;
      send = () =>
        t.http.send({ method: row.method, path, auth: credential, headers, ...(row.operation === 'list a collection' ? { query: { limit: 1 } } : {}) });
    }
    const described = `${label} by ${row.credential}${row.header !== '—' && row.header !== 'none' ? ` with ${row.header}` : ''}${describeOwners(row)}`;
    if (unnamed) {
      unsent.push(`${described}: every id the other account shows is also one of the actor's own (ids counted per account)`);
      return;
    }
    const res = await send();
    if (res === null) unsent.push(`${described}: the cap on submissions left no room`);
    else visited.push({ row, label: described, res, drawn });
  };
  for (const [index, row] of array.rows.entries()) await sendRow(row, index, false);
  // The budget left over (`--explore`) draws stronger combinations at random: rows the array does
  // not hold, none that the main key may create (the run's submissions are the pairs' and the
  // checks' own, within the cap), and each with a live key: a refused credential's row shows the
  // credential's pairs alone (`shownPairs`), which the array holds already, and spends the budget
  // per IP address (20 a minute), which AUTH-1's probes and RATE-7's burst fill. The second
  // account's key, where there is one: its budget has room, where the main key's work sizes the pool.
  const drawnBy = other ? "the other account's key" : 'the main key';
  const beyond = drawnBeyond(
    dimensions,
    (row) => meaningful(row) && !createsOwn(row) && row.credential === drawnBy,
    array.rows,
    t.run.explore * ROWS_PER_DRAW,
    t.run.seed,
  );
  await t.exploring(async () => {
    for (const [index, row] of beyond.entries()) await sendRow(row, array.rows.length + index, true);
  });
  return { visited, array, beyond: beyond.length, leftOut, unsent };
}

/** A path under /api/v1/ that no API has: its answer is a 404 of the API's, or a credential's refusal. */
const UNKNOWN_PATH = '/api/v1/conformance_no_such_collection';

/** Rows drawn beyond the pairs for each sequence the explorer draws (`--explore`): a request each. */
const ROWS_PER_DRAW = 3;

/** A row the target may answer by creating a submission: the main key's, into its own workspace and taxonomy. */
function createsOwn(row: PairRow): boolean {
  return row.operation === 'create a submission' && row.credential === 'the main key' && row.workspace === OWN && row.taxonomy === OWN;
}

/** The objects a row names, where it names another account's. */
function describeOwners(row: PairRow): string {
  const named = (['owner', 'workspace', 'taxonomy'] as const)
    .filter((d) => row[d] === OTHER)
    .map((d) => (d === 'owner' ? "another account's object" : `another account's ${d}`));
  const rows = row.rows === 'empty' ? ', rows: []' : '';
  return `${named.length > 0 ? `, naming ${named.join(' and ')}` : ''}${rows}`;
}

function credentialOf(t: CheckContext, credential: PairRow['credential']): Credential {
  switch (credential) {
    case 'the main key':
      return 'main';
    case "the other account's key":
      return 'other';
    case 'no key':
      return 'none';
    case 'a malformed header':
      return { header: `Token ${t.run.keys.main}` };
    case 'an unknown key':
      return { key: oneCharacterChanged(t.run.keys.main, t.run.keyPrefix), kind: 'invalid' };
  }
}

/** The report's lines: how many pairs of how many, in how many requests, and why the rest were left out. */
function coverageLines(visit: PairsVisit, seed: number, explore: number): string[] {
  const { array, beyond, leftOut, unsent, visited } = visit;
  return [
    `${array.pairs} pairs of ${Object.keys(PAIR_DIMENSIONS).length} dimensions visited in ${visited.length - visited.filter((v) => v.drawn).length} requests (seed ${seed}); ${array.meaningless.length} pairs are not asked (an operation without that dimension, a refusal that comes first, a header of the catalogue on HEAD, which each meets on GET, or a wildcard Accept or an unknown path with a refused key, which would spend the budget per IP address)`,
    `${beyond} rows drawn at random beyond them (--explore ${explore}): combinations of three values and more`,
    ...leftOut.map((gap) => `left out: ${gap.dimension} ${gap.value}: ${gap.why}`),
    ...unsent.map((line) => `not sent: ${line}`),
    ...visited.map((v) => `${v.drawn ? 'drawn: ' : ''}${v.label}: ${v.res.status}`),
  ];
}

check(
  'GEN-3',
  'every pair of what the run varies (operation, credential, method, header, owner, a body’s references, rows) meets in a request, and none yields a 5xx',
  async (t) => {
    const visit = await visitPairs(t);
    t.noteExplored(coverageLines(visit, t.run.seed, t.run.explore));
    const failed = visit.visited.filter((v) => fromApi(v.res.exchange) && v.res.status >= 500);
    if (failed.length > 0)
      t.fail(
        `${failed[0]!.label}: answered ${failed[0]!.res.status}${failed.length > 1 ? ` (and ${failed.length - 1} more)` : ''}`,
        ...failed.slice(0, 3).map((v) => v.res),
      );
  },
  { key: 'pairs', concurrent: true },
);

check(
  'AUTH-6',
  "no request of the pairs that names another account's object, in its path or its body, is served, whatever the operation, key or header",
  async (t) => {
    const visit = await visitPairs(t);
    t.noteExplored(coverageLines(visit, t.run.seed, t.run.explore));
    const named = visit.visited.filter((v) => [v.row.owner, v.row.workspace, v.row.taxonomy].includes(OTHER));
    if (named.length === 0) t.skip(visit.leftOut.find((gap) => gap.value === OTHER)?.why ?? "no pair named another account's object");
    const served = named.filter((v) => fromApi(v.res.exchange) && ((v.res.status >= 200 && v.res.status < 300) || v.res.status === 304));
    if (served.length > 0)
      t.fail(
        `${served[0]!.label}: answered ${served[0]!.res.status}, expected a refusal (404 not_found_error for an object it cannot reach)`,
        ...served.slice(0, 3).map((v) => v.res),
      );
  },
  { key: 'pairs', concurrent: true },
);
