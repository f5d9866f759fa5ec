import { BESIDE, check, snippet, type CheckContext, type HttpResponse, errorOf, idsOf, profileFact } from '../src/kit.js';
import fc from 'fast-check';
import { INVALID_SUBMISSION_KINDS, invalidSubmission, type InvalidSubmission, type InvalidSubmissionKind } from './arbitraries/invalidSubmission.js';
import { BOUNDARY_ROWS, fakersReady, rowData, type RowData } from './arbitraries/rowData.js';
import { listAll } from './support/list-all.js';
import {
  createSubmission,
  hasIndex,
  names,
  submissionId,
  submit,
  tagged,
  taxonomyIds,
  validSubmission,
  workspaceIds,
  type ValidSubmission,
} from './support/submissions.js';
import { JSON_VALUES } from './catalogues/json-values.js';

// SUB: submissions (API document, Submission; Operations; Details and open points). Every check
// here writes: each submission it creates is tagged with the run id in its row data (where the
// profile says any data is accepted) and recorded in the ledger the moment it is answered 2xx.

check(
  'SUB-1',
  'a well-formed submission with the workspace query parameter answers 201',
  async (t) => {
    const valid = validSubmission(t);
    const res = (await createSubmission(t, valid.body, valid.query)) ?? t.submissions.noRoom();
    // A refusal of the body is explained by a wrong query parameter name or sample row as well as by the target: the facts are named.
    const facts = [400, 404, 422].includes(res.status)
      ? ` (${profileFact(t.profile, 'submissions.workspaceQueryParam')}, ${profileFact(t.profile, 'submissions.sampleRow')}: are they right?)`
      : '';
    t.ensure(
      res.status === 201,
      () => `POST /api/v1/submissions with a well-formed body answered ${res.status}, expected 201${facts}: ${snippet(res.text)}`,
      res,
    );
  },
  { key: 'well-formed', writes: true, createsSubmissions: true },
);

const KIND_TITLES: Record<InvalidSubmissionKind, string> = {
  'rows-not-array': 'rows that are not an array',
  'row-not-object': 'a row that is not an object',
  'data-missing': 'a row without data',
  'data-not-object': 'a row whose data is not an object',
  'workspace-id-wrong-type': 'a workspace_id that is not a string',
  'taxonomy-id-wrong-type': 'a taxonomy_id that is not a string',
};

const IN_A_ROW: ReadonlySet<InvalidSubmissionKind> = new Set(['row-not-object', 'data-missing', 'data-not-object']);

/** Cases per kind: the run's property budget shared over the kinds, a few at least. */
const perKind = (t: CheckContext) => Math.max(3, Math.ceil(t.run.propertyRuns / INVALID_SUBMISSION_KINDS.length));

/** Runs a property over invalid bodies of one kind; `judge` sees each answer. */
async function eachInvalid(t: CheckContext, kind: InvalidSubmissionKind, judge: (res: HttpResponse, input: InvalidSubmission) => void): Promise<void> {
  const valid = validSubmission(t);
  await t.property(
    invalidSubmission(valid, [kind]),
    async (input) => {
      judge(await submit(t, input.body, valid.query), input);
    },
    { numRuns: perKind(t) },
  );
}

// Invalid bodies, each kind's cases sent one after another by its check, the checks beside each
// other: none lists the submissions, and a conformant target stores none of these (one that does
// is recorded in the ledger all the same), so that their order says nothing.
for (const kind of INVALID_SUBMISSION_KINDS) {
  const statuses = kind === 'data-missing' ? '400 or 422' : '422';
  check(
    'SUB-2',
    `${KIND_TITLES[kind]} is ${statuses} invalid_request_error naming the input`,
    async (t) => {
      await eachInvalid(t, kind, (res, input) => {
        t.ensure(
          input.statuses.includes(res.status),
          () => `a submission where ${input.fault} answered ${res.status}, expected ${statuses}${res.status < 300 ? ': the invalid body was accepted' : ''}`,
          res,
        );
        const error = errorOf(res.json);
        if (res.status !== 422) return;
        t.ensure(
          error?.type === 'invalid_request_error',
          () => `the 422 for a submission where ${input.fault} has type ${JSON.stringify(error?.type)}, expected invalid_request_error`,
          res,
        );
        t.ensure(
          input.params.some((p) => names(error?.param, p)),
          () => `the 422 for a submission where ${input.fault} has param ${JSON.stringify(error?.param)}, expected it to name ${input.params.join(' or ')}`,
          res,
        );
      });
    },
    { key: `invalid-${kind}`, values: kind === 'data-missing' ? ['absent'] : undefined, writes: true, ...BESIDE },
  );

  check(
    'SUB-3',
    `for ${KIND_TITLES[kind]}, path locates the fault${IN_A_ROW.has(kind) ? ", the row's index included" : ''}`,
    async (t) => {
      await eachInvalid(t, kind, (res, input) => {
        // Only a refusal has a path to judge; a wrong status is SUB-2's finding.
        const error = errorOf(res.json);
        if ((res.status !== 400 && res.status !== 422) || !error) return;
        t.ensure(
          names(error.path, input.member),
          () => `the ${res.status} for a submission where ${input.fault} has path ${JSON.stringify(error.path)}, expected it to locate ${input.member}`,
          res,
        );
        if (input.rowIndex !== null) {
          t.ensure(
            hasIndex(error.path, input.rowIndex),
            () =>
              `the ${res.status} for a submission where ${input.fault} has path ${JSON.stringify(error.path)}, which does not give the row index ${input.rowIndex}`,
            res,
          );
        }
      });
    },
    { key: `path-${kind}`, values: kind === 'data-missing' ? ['absent'] : undefined, writes: true, ...BESIDE },
  );
}

/** A submission with one member present but empty, and the names a 422 may give it. */
interface EmptyValue {
  readonly what: string;
  readonly body: unknown;
  readonly query: Record<string, string>;
  readonly params: readonly string[];
  /** The member refers to a resource: 404 not_found_error is a reading too. */
  readonly reference: boolean;
  /**
   * The profile declares the member not required: read as missing, the submission may be created
   * (the query's workspace stands for it), so a 2xx is a reading too.
   */
  readonly optional: boolean;
}

/**
 * Present but empty values: the document does not say how they read. An empty string or null
 * may be taken as missing (400), as an invalid value (422 naming it) or, for an id, as a
 * reference to nothing (404 not_found_error); all three refuse the submission (clause catalogue, ERR-3).
 * Of a member the profile declares not required, missing is no fault: read so, it may be created.
 * An empty workspace query parameter may be named in a 422 as itself or as the body's
 * workspace_id it no longer matches.
 */
function emptyValues(valid: ValidSubmission, t: CheckContext): EmptyValue[] {
  const required = t.profile.submissions.requiredBodyFields;
  const out = (['workspace_id', 'taxonomy_id', 'rows'] as const).flatMap((member): EmptyValue[] =>
    (['', null] as const).map((value) => ({
      what: `${member} present in the body as ${value === null ? 'null' : 'an empty string'}`,
      body: { ...valid.body, [member]: value },
      query: valid.query,
      params: [member],
      reference: member !== 'rows',
      optional: Array.isArray(required) && !required.includes(member),
    })),
  );
  // A row's data as null: missing (400) or invalid (422), as the document leaves it, never a 5xx
  // (GEN-3, judged over every answer): the invalid bodies' generators leave null out for that reason.
  // Alone, and after a valid row: a target may check the first row on its own (a one-row path) and
  // pass the others to the store unchecked, or the other way round.
  for (const [what, nulled] of [
    ["a row's data present as null", [{ data: null }]],
    ["a second row's data present as null", [...valid.body.rows, { data: null }]],
  ] as const)
    out.push({
      what,
      body: { ...valid.body, rows: nulled },
      query: valid.query,
      // As for a row's data of another wrong type: named as the row's member or as the rows.
      params: ['rows', 'data'],
      reference: false,
      optional: false,
    });
  const param = t.profile.submissions.workspaceQueryParam;
  if (param)
    out.push({
      what: `${param} present in the query as an empty string`,
      body: valid.body,
      query: { ...valid.query, [param]: '' },
      params: [param, 'workspace_id'],
      reference: true,
      optional: t.profile.submissions.workspaceQueryParamRequired === false,
    });
  return out;
}

check(
  'SUB-2',
  "an id, rows, a row's data or the workspace query parameter present but empty is refused: 400, 404 for a reference, or 422 naming it",
  async (t) => {
    const valid = validSubmission(t);
    for (const { what, body, query, params, reference, optional } of emptyValues(valid, t)) {
      // One the target may create goes within the run's cap; none left, the case is not sent.
      const res = optional ? await t.submissions.create(() => submit(t, body, query)) : await submit(t, body, query);
      if (res === null) continue;
      const allowed = reference ? [400, 404, 422] : [400, 422];
      if (optional && res.status >= 200 && res.status < 300) continue;
      t.ensure(
        allowed.includes(res.status),
        () => `a submission with ${what} answered ${res.status}, expected ${allowed.join(', ')}${res.status < 300 ? ': the submission was accepted' : ''}`,
        res,
      );
      const error = errorOf(res.json);
      if (res.status === 404)
        t.ensure(
          error?.type === 'not_found_error',
          () => `the 404 for a submission with ${what} has type ${JSON.stringify(error?.type)}, expected not_found_error`,
          res,
        );
      if (res.status !== 422) continue;
      t.ensure(
        error?.type === 'invalid_request_error',
        () => `the 422 for a submission with ${what} has type ${JSON.stringify(error?.type)}, expected invalid_request_error`,
        res,
      );
      t.ensure(
        params.some((p) => names(error?.param, p)),
        () => `the 422 for a submission with ${what} has param ${JSON.stringify(error?.param)}, expected it to name ${params.join(' or ')}`,
        res,
      );
    }
  },
  { key: 'present-but-empty', values: ['null', 'empty'], writes: true },
);

/** A list dimension SUB-4 filters on: the profile's filter name and the ids to tell apart. */
interface Dimension {
  readonly what: 'workspace' | 'taxonomy';
  readonly filter: string;
  readonly a: string;
  readonly b: string;
}

check(
  'SUB-4',
  'listing submissions filtered by workspace, by taxonomy or by both together narrows the list, and total_count counts the matches',
  async (t) => {
    const listPath = t.profile.paths.submissionList!;
    const filters = t.profile.submissions.listFilters!;
    const [wsA, wsB] = workspaceIds(t);
    const [txA, txB] = taxonomyIds(t);
    let dimensions: Dimension[] = [];
    if (wsA && wsB) dimensions.push({ what: 'workspace', filter: filters.workspace!, a: wsA, b: wsB });
    if (txA && txB) dimensions.push({ what: 'taxonomy', filter: filters.taxonomy!, a: txA, b: txB });
    if (dimensions.length === 0)
      t.skip(
        t.profile.submissions.workspaceId
          ? 'the profile sends every submission to one workspace and the target has one taxonomy: no filter can be seen to narrow'
          : 'the target has one workspace and one taxonomy: no filter can be seen to narrow',
      );

    // One submission in (A, A) and one in (B, B): each filter value matches one and not the other.
    if ((await t.submissions.room()) < 2) t.submissions.noRoom();
    const created: Record<'a' | 'b', string | null> = { a: null, b: null };
    for (const side of ['a', 'b'] as const) {
      const valid = validSubmission(t, { workspace: side === 'a' ? wsA : (wsB ?? wsA), taxonomy: side === 'a' ? txA : (txB ?? txA) });
      let res = (await createSubmission(t, valid.body, valid.query)) ?? t.submissions.noRoom();
      if (side === 'b' && txB && res.status >= 400 && res.status < 500 && t.profile.submissions.acceptsAnyData !== true) {
        // Rows are validated against their taxonomy, and the sample row is one for the first: the
        // taxonomy filter cannot be exercised, the workspace filter still can.
        dimensions = dimensions.filter((d) => d.what !== 'taxonomy');
        if (dimensions.length === 0)
          t.skip(`a submission to a second taxonomy answered ${res.status} (the sample row fits the first), and the target has one workspace`);
        const retry = validSubmission(t, { workspace: wsB ?? wsA, taxonomy: txA });
        res = (await createSubmission(t, retry.body, retry.query)) ?? t.submissions.noRoom();
      }
      t.ensure(res.status === 201, () => `creating a submission to list answered ${res.status}, expected 201`, res);
      created[side] = submissionId(res);
    }

    // Both filters together, read before either alone: a submission another check makes meanwhile
    // can only raise the counts read after.
    const workspace = dimensions.find((d) => d.what === 'workspace');
    const taxonomy = dimensions.find((d) => d.what === 'taxonomy');
    const together = workspace && taxonomy ? await bothFilters(t, listPath, workspace, taxonomy) : null;
    const alone: Partial<Record<Dimension['what'], Alone>> = {};

    const all = await t.lists.fetchPage(listPath, { limit: 1 });
    for (const { what, filter, a, b } of dimensions) {
      const onA = await listAll(t, listPath, { [filter]: a });
      const onB = await listAll(t, listPath, { [filter]: b });
      alone[what] = { res: onA.res, total: onA.page.total_count };
      const label = (id: string) => `${listPath}?${filter}=${id}`;
      // A wrong filter name explains each failure below as well as a fault of the target: each names the fact.
      const fact = profileFact(t.profile, `submissions.listFilters.${what}`);
      t.ensure(
        onA.page.total_count >= 1,
        () => `${label(a)} has total_count ${onA.page.total_count}, but a submission to that ${what} was just created (${fact})`,
        onA.res,
      );
      t.ensure(
        onA.page.total_count < all.page.total_count,
        () =>
          onB.page.total_count === all.page.total_count
            ? `${fact}: every value gave the same ${all.page.total_count} items as the unfiltered list (${label(a)}, ${label(b)}); is the name right? If it is, the filter does not narrow`
            : `${label(a)} has total_count ${onA.page.total_count}, the unfiltered list ${all.page.total_count}: the filter does not narrow, though a submission to another ${what} exists (${fact})`,
        onA.res,
        all.res,
      );
      t.ensure(
        onA.page.total_count + onB.page.total_count <= all.page.total_count,
        () =>
          `${label(a)} (${onA.page.total_count}) and ${label(b)} (${onB.page.total_count}) count more than the unfiltered list (${all.page.total_count}): total_count does not count matches (${fact})`,
        onA.res,
        onB.res,
        all.res,
      );
      for (const [side, listed] of [
        ['a', onA],
        ['b', onB],
      ] as const) {
        if (listed.complete) {
          t.ensure(
            listed.items.length === listed.page.total_count,
            () => `${label(side === 'a' ? a : b)} lists ${listed.items.length} submissions over its pages but says total_count ${listed.page.total_count}`,
            listed.res,
          );
        }
        // Where submissions carry an id (their fields are not shown), membership can be seen too.
        const ids = idsOf(listed.items);
        const own = created[side];
        const foreign = created[side === 'a' ? 'b' : 'a'];
        if (foreign && ids.includes(foreign))
          t.fail(`${label(side === 'a' ? a : b)} lists submission ${foreign}, created in another ${what} (${fact})`, listed.res);
        if (own && listed.complete && ids.length > 0)
          t.ensure(ids.includes(own), () => `${label(side === 'a' ? a : b)} does not list submission ${own}, just created there`, listed.res);
      }
    }
    if (together && workspace && taxonomy) judgeTogether(t, together, alone.workspace!, alone.taxonomy!, { workspace, taxonomy });
  },
  { key: 'filtered-list', filters: ['none', 'each alone', 'together'], writes: true, createsSubmissions: true },
);

/** A list read with one filter at its first value (A): its total_count, and the response. */
interface Alone {
  readonly total: number;
  readonly res: HttpResponse;
}

/** A list read with both filters: its total_count, and the response. */
interface Together {
  readonly total: number;
  readonly res: HttpResponse;
  readonly label: string;
}

/**
 * The list filtered by workspace and taxonomy together at (A, A), (A, B) and (B, A), one page of one
 * item each; null where the target refuses the two together (400, 422: the document names each
 * filter, not their combination).
 */
async function bothFilters(t: CheckContext, path: string, ws: Dimension, tx: Dimension): Promise<Record<'aa' | 'ab' | 'ba', Together> | null> {
  const out: Partial<Record<'aa' | 'ab' | 'ba', Together>> = {};
  for (const [at, w, x] of [
    ['aa', ws.a, tx.a],
    ['ab', ws.a, tx.b],
    ['ba', ws.b, tx.a],
  ] as const) {
    const query = { [ws.filter]: w, [tx.filter]: x, limit: '1' };
    const res = await t.http.get(path, { query });
    if (res.status === 400 || res.status === 422) return null;
    t.ensure(res.status === 200, () => `${path}?${ws.filter}=${w}&${tx.filter}=${x} answered ${res.status}, expected 200`, res);
    const total = (t.json(res) as { total_count?: unknown } | null)?.total_count;
    t.ensure(typeof total === 'number', () => `${path}?${ws.filter}=${w}&${tx.filter}=${x} has no numeric total_count`, res);
    out[at] = { total: total as number, res, label: `${path}?${ws.filter}=${w}&${tx.filter}=${x}` };
  }
  return out as Record<'aa' | 'ab' | 'ba', Together>;
}

/**
 * Both filters narrow at once: (A, A) holds the submission just made there, and a workspace's count
 * split by two taxonomies (or a taxonomy's by two workspaces) is at most that workspace's alone.
 * A target that applies one filter of the two counts the whole workspace (or taxonomy) twice.
 */
function judgeTogether(
  t: CheckContext,
  both: Record<'aa' | 'ab' | 'ba', Together>,
  workspaceA: Alone,
  taxonomyA: Alone,
  { workspace, taxonomy }: { workspace: Dimension; taxonomy: Dimension },
): void {
  const { aa, ab, ba } = both;
  t.ensure(aa.total >= 1, () => `${aa.label} has total_count ${aa.total}, but a submission to that workspace and taxonomy was just created`, aa.res);
  t.ensure(
    aa.total + ab.total <= workspaceA.total,
    () =>
      `${aa.label} (${aa.total}) and ${ab.label} (${ab.total}) count more than ${workspace.filter}=${workspace.a} alone (${workspaceA.total}): the ${taxonomy.what} filter does not narrow when both are given`,
    aa.res,
    ab.res,
    workspaceA.res,
  );
  t.ensure(
    aa.total + ba.total <= taxonomyA.total,
    () =>
      `${aa.label} (${aa.total}) and ${ba.label} (${ba.total}) count more than ${taxonomy.filter}=${taxonomy.a} alone (${taxonomyA.total}): the ${workspace.what} filter does not narrow when both are given`,
    aa.res,
    ba.res,
    taxonomyA.res,
  );
}

// SUB-5 sends its well-formed rows many to a submission, since submissions cannot be deleted (issue
// 24): the rows of many cases travel together, and a submission that fails is split in halves until
// the first case that fails alone is found (`t.submissions.cases` and `.property`), so the finding
// names one case as a request per case would have. Last in the file: the cap's room goes to SUB-1
// and SUB-4 first, whose cases cannot share a submission.

/** Judges the answer to well-formed rows: never a 5xx, 201 where any data is accepted. */
function judgeWellFormed(t: CheckContext, res: HttpResponse, what: string): void {
  t.ensure(res.status < 500, () => `a submission of ${what} answered ${res.status}: well-formed rows must never cause a server error`, res);
  if (t.profile.submissions.acceptsAnyData === true) {
    t.ensure(
      res.status === 201,
      () => `a submission of ${what} answered ${res.status}, expected 201: the profile says any data object is accepted: ${snippet(res.text)}`,
      res,
    );
  }
}

/** The cases of one submission in words: the case itself when it travels alone. */
function together(whats: readonly string[]): string {
  return whats.length === 1 ? whats[0]! : `the rows of ${whats.length} cases together (${whats.join('; ')})`;
}

/** A row's data as sent: tagged with the run, but an empty data object is the case itself and stays empty. */
const asSent = (t: CheckContext, data: RowData) => ({ data: Object.keys(data).length === 0 ? {} : tagged(t, data) });

/** Sends the rows of `cases` in one submission within the cap, and judges the answer; false when the cap leaves no room. */
async function sendRows(t: CheckContext, rows: readonly RowData[], what: string): Promise<boolean> {
  const valid = validSubmission(t);
  const res = await createSubmission(t, { ...valid.body, rows: rows.map((data) => asSent(t, data)) }, valid.query);
  if (!res) return false;
  judgeWellFormed(t, res, what);
  return true;
}

/** A data object with no member: a submission made only of such rows is a case of its own (a column list built from the rows' members is empty). */
const allEmpty = (rows: readonly RowData[]) => rows.every((data) => Object.keys(data).length === 0);

check(
  'SUB-5',
  'rows at the boundaries of data (empty data objects alone and beside filled ones, empty arrays, empty strings and nulls inside, the deepest nesting and longest string generated) never get a 5xx, and get 201 where any data object is accepted',
  async (t) => {
    // Two submissions: the cases whose rows are all empty data objects, and the rest in order.
    const groups = [BOUNDARY_ROWS.filter((c) => allEmpty(c.rows)), BOUNDARY_ROWS.filter((c) => !allEmpty(c.rows))];
    await t.submissions.cases(
      groups,
      (cases) =>
        sendRows(
          t,
          cases.flatMap((c) => c.rows),
          together(cases.map((c) => c.what)),
        ),
      (c) => c.rows.length,
    );
  },
  { key: 'boundary-rows', values: ['null', 'empty', 'boundary', 'unicode', 'huge'], writes: true, createsSubmissions: true },
);

check(
  'SUB-5',
  'rows at the edges (non-BMP text, right-to-left text, deep nesting, long strings, empty objects, special member names, NUL and separators, integer boundaries) never get a 5xx',
  async (t) => {
    // Every edge row is tagged, the empty one included, as when each was a submission of its own.
    // Rows at the edges a stack is most likely to trip on, sent every run whatever the seed (suites/catalogues/json-values.ts).
    await t.submissions.cases([JSON_VALUES], (cases) =>
      sendRows(
        t,
        cases.map((c) => tagged(t, c.data) as RowData),
        together(cases.map((c) => `a row with ${c.what}`)),
      ),
    );
  },
  { key: 'edge-rows', values: ['null', 'empty', 'boundary', 'unicode', 'huge'], writes: true, createsSubmissions: true },
);

/**
 * Bytes a submission of generated rows carries at most, where the cap leaves room: under the 1 MB
 * that servers and front ends accept by default (Fastify, nginx); a target that refuses a larger
 * body with a 4xx gets it again in halves (`t.submissions.property`).
 */
const MAX_SUBMISSION_BYTES = 512 * 1024;

/**
 * A case's bytes, measured once: a shrink weighs each of its candidates to batch them and again to
 * split them, and a "huge" case is some hundred KB (a seed whose shrink met such cases spent a minute
 * of the worker's CPU in this alone). The cases are fast-check's values, never changed once made.
 */
const sizes = new WeakMap<readonly RowData[], number>();
const bytesOf = (rows: readonly RowData[]): number => {
  let size = sizes.get(rows);
  if (size === undefined) sizes.set(rows, (size = Buffer.byteLength(JSON.stringify(rows))));
  return size;
};

check(
  'SUB-5',
  'generated well-formed rows never get a 5xx, and get 201 where any data object is accepted',
  async (t) => {
    await fakersReady();
    // Each case is one to three rows, as a request of its own would carry; the cases travel many to a submission.
    await t.submissions.property(
      fc.array(rowData(), { minLength: 1, maxLength: 3 }),
      (cases) => sendRows(t, cases.flat(), cases.length === 1 ? 'generated rows' : `the generated rows of ${cases.length} cases together`),
      {
        batches: (cases) => Math.ceil(cases.reduce((sum, rows) => sum + bytesOf(rows), 0) / MAX_SUBMISSION_BYTES),
        weight: bytesOf,
        rows: (rows) => rows.length,
      },
    );
  },
  { key: 'generated-rows', values: ['null', 'empty', 'boundary', 'unicode', 'huge'], writes: true, createsSubmissions: true },
);
