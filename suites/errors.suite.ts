import { check, snippet, type CheckContext, type HttpResponse, errorOf, isErrorEnvelope, type ErrorObject, fillPath, type CollectionName } from '../src/kit.js';
import { names, submit, validSubmission, type ValidSubmission } from './support/submissions.js';
import { retrievedResource } from './support/retrieval.js';

// ERR: errors (API document, Errors). ERR-1, ERR-2, ERR-4 and ERR-6 are judged over every exchange
// of the run (suites/run-wide.suite.ts); the checks here provoke errors for them to judge, and
// check what only a deliberate request can show: 400 versus 422, not-found bodies, unknown paths.

/** One required parameter of a submission, and the request that leaves it out. */
interface Omission {
  readonly param: string;
  readonly where: 'body' | 'query';
  readonly query: Record<string, string>;
  readonly body: Record<string, unknown>;
}

/** Each parameter the profile declares required, omitted in turn from an otherwise valid submission (ERR-3). */
function omissions(valid: ValidSubmission, t: CheckContext): Omission[] {
  const { requiredBodyFields, workspaceQueryParam, workspaceQueryParamRequired } = t.profile.submissions;
  const out: Omission[] = (requiredBodyFields ?? []).map((field) => {
    const { [field]: _left, ...body } = valid.body as Record<string, unknown>;
    return { param: field, where: 'body', query: valid.query, body };
  });
  if (workspaceQueryParam && workspaceQueryParamRequired === true) out.push({ param: workspaceQueryParam, where: 'query', query: {}, body: valid.body });
  return out;
}

const describeOmission = (o: Omission) => `${o.param} left out of the ${o.where === 'body' ? 'body' : 'query'}`;

check(
  'ERR-3',
  'each required parameter, omitted in turn, is 400, not 422',
  async (t) => {
    const valid = validSubmission(t);
    for (const omission of omissions(valid, t)) {
      const res = await submit(t, omission.body, omission.query);
      t.ensure(
        res.status === 400,
        () =>
          `POST /api/v1/submissions with ${describeOmission(omission)} answered ${res.status}, expected 400 for a missing required parameter${res.status === 422 ? ' (422 is for a present but invalid value)' : ''}`,
        res,
      );
    }
  },
  { key: 'required-parameter-omitted', values: ['absent'], writes: true },
);

check(
  'ERR-7',
  'a 400 for a missing parameter has code missing_param and names the parameter',
  async (t) => {
    const valid = validSubmission(t);
    let judged = 0;
    for (const omission of omissions(valid, t)) {
      const res = await submit(t, omission.body, omission.query);
      // A status other than 400 is ERR-3's finding; this clause judges the 400's body.
      if (res.status !== 400) continue;
      judged++;
      const error = errorOf(res.json);
      t.ensure(
        error?.code === 'missing_param',
        () => `the 400 for ${describeOmission(omission)} has code ${JSON.stringify(error?.code)}, expected "missing_param"`,
        res,
      );
      t.ensure(
        names(error?.param, omission.param),
        () => `the 400 for ${describeOmission(omission)} has param ${JSON.stringify(error?.param)}, expected it to name ${omission.param}`,
        res,
      );
    }
    if (judged === 0) t.skip('no omitted parameter was answered 400 (see ERR-3)');
  },
  { key: 'missing-param-code', values: ['absent'], writes: true },
);

/** An id no resource of a collection has, and whether an answer 200 to it may yet be the resource it names. */
interface UnknownId {
  readonly id: string;
  /** A 200 for it is no finding where it is the resource it names: its id member the one asked for. */
  readonly mayExist: 'any 200' | 'the same id' | 'never';
  /**
   * Holds a character sent percent-encoded (`%`, as `%25`): a lookup that decodes the id once more
   * meets no percent-encoding and throws. Some front ends refuse it themselves (IIS's filter of
   * double escaping, a firewall's rule of multiple encoding), so it is sent `frontEndFragile`.
   */
  readonly encoded?: boolean;
}

/**
 * Ids no resource of the collection has, each shaped to meet a shortcut of a lookup: the run's own,
 * recognisable in logs, also holding a `%` (a lookup that decodes the id twice); a listed id's
 * look-alike; a listed id with a character added (a lookup that reads a prefix or a fixed slot of
 * the id: not where ids are digits alone, which a framework may cast to a number, as Rails' `find`
 * does); and, where the preflight saw every item of the collection, an id the account lists under
 * another collection (a lookup that forgets the kind).
 */
function unknownIds(t: CheckContext, collection: CollectionName): UnknownId[] {
  const known = t.run.preflight.collections;
  const listed = known[collection]?.ids ?? [];
  const ids: UnknownId[] = [
    { id: `conformance-missing-${t.run.runId}`, mayExist: 'never' },
    { id: `conformance%missing-${t.run.runId}`, mayExist: 'never', encoded: true },
  ];
  const sample = listed[0];
  if (sample && sample.length > 6) ids.push({ id: `${sample.slice(0, -6)}zz9zz9`, mayExist: 'any 200' });
  if (sample && !/^\d+$/.test(sample)) ids.push({ id: `${sample}x`, mayExist: 'the same id' });
  const whole = known[collection]?.total === listed.length;
  const otherKind = Object.entries(known)
    .filter(([name]) => name !== collection && name !== 'apiKeys' && name !== 'submissions')
    .flatMap(([, state]) => state?.ids ?? [])
    .find((id) => !listed.includes(id));
  if (whole && otherKind !== undefined) ids.push({ id: otherKind, mayExist: 'never' });
  return ids.filter(({ id }) => !listed.includes(id));
}

/** GETs each unknown id at `template`; answers 200 that may be the resource the id names after all are left out. */
async function missing(t: CheckContext, template: string, collection: CollectionName): Promise<HttpResponse[]> {
  const idField = t.lists.endpoint(collection).idField ?? 'id';
  const out: HttpResponse[] = [];
  for (const { id, mayExist, encoded } of unknownIds(t, collection)) {
    const res = await t.http.get(fillPath(template, id), encoded ? { frontEndFragile: true } : {});
    if (res.status === 200 && mayExist === 'any 200') continue;
    // Served as the resource asked for: it exists after all. Another resource, under the id asked: a lookup's shortcut.
    if (res.status === 200 && mayExist === 'the same id' && (retrievedResource(res.json, id, idField) as Record<string, unknown> | null)?.[idField] === id)
      continue;
    out.push(res);
  }
  return out;
}

/** The 404's error object, to judge further; null where a front end may have answered for the API. */
function ensureNotFound(t: CheckContext, res: HttpResponse, what: string): ErrorObject | null {
  const path = res.exchange.request.url;
  if (res.exchange.frontEndFragile) {
    // An id with a character sent percent-encoded: the API's 404, or a front end's refusal of the URL (any 4xx), never served nor a fault.
    t.ensure(
      res.status >= 400 && res.status < 500,
      () =>
        `GET ${path} (a ${what} that does not exist, its id holding a character sent percent-encoded) answered ${res.status}, expected 404, or a front end's 4xx`,
      res,
    );
    const error = errorOf(res.json);
    return res.status === 404 && error?.type === 'not_found_error' ? error : null;
  }
  t.ensure(res.status === 404, () => `GET ${path} (a ${what} that does not exist) answered ${res.status}, expected 404`, res);
  const error = errorOf(res.json);
  t.ensure(
    error?.type === 'not_found_error',
    () => `the 404 for a missing ${what} has type ${JSON.stringify(error?.type)}, expected not_found_error: ${snippet(res.text)}`,
    res,
  );
  return error!;
}

function ensureNullCodeAndParam(t: CheckContext, res: HttpResponse, error: ErrorObject, what: string): void {
  t.ensure(error.code === null, () => `the 404 for a missing ${what} has code ${JSON.stringify(error.code)}, expected null (no finer code applies)`, res);
  t.ensure(error.param === null, () => `the 404 for a missing ${what} has param ${JSON.stringify(error.param)}, expected null`, res);
}

check(
  'ERR-5',
  'a missing record is 404 not_found_error with code null and param null',
  async (t) => {
    for (const res of await missing(t, t.profile.paths.record!, 'records')) {
      const error = ensureNotFound(t, res, 'record');
      if (error) ensureNullCodeAndParam(t, res, error, 'record');
    }
  },
  { key: 'missing-record', states: ['deleted'] },
);

/** Every retrieval other than the record's that the profile may offer (ERR-5 status and type, ERR-9 body). */
const OTHER_RETRIEVALS: readonly { collection: CollectionName; what: string }[] = [
  { collection: 'workspaces', what: 'workspace' },
  { collection: 'governanceModels', what: 'governance model' },
  { collection: 'taxonomies', what: 'taxonomy' },
  { collection: 'fields', what: 'field' },
  { collection: 'picklists', what: 'picklist' },
];

/** The answers to every unknown id at every other retrieval: asked once, judged by ERR-5 (status and type) and ERR-9 (body). */
const otherMissing = (t: CheckContext) =>
  t.once('other missing resources', async () => {
    const out: { res: HttpResponse; what: string }[] = [];
    for (const { collection, what } of OTHER_RETRIEVALS.filter(({ collection }) => t.lists.endpoint(collection).item !== null)) {
      for (const res of await missing(t, t.lists.endpoint(collection).item!, collection)) out.push({ res, what });
    }
    return out;
  });

async function eachOtherMissing(t: CheckContext, judge: (res: HttpResponse, what: string) => void): Promise<void> {
  if (OTHER_RETRIEVALS.every(({ collection }) => t.lists.endpoint(collection).item === null))
    t.notApplicable('the profile declares no retrieval path besides the record one');
  for (const { res, what } of await otherMissing(t)) judge(res, what);
}

check(
  'ERR-5',
  'every other missing resource the profile can retrieve is 404 not_found_error',
  async (t) => {
    await eachOtherMissing(t, (res, what) => void ensureNotFound(t, res, what));
  },
  { key: 'missing-other-resources', states: ['deleted'] },
);

check(
  'ERR-9',
  'every other missing resource has code null and param null',
  async (t) => {
    await eachOtherMissing(t, (res, what) => {
      // A status or type other than 404 not_found_error is ERR-5's finding; this clause judges the body.
      const error = errorOf(res.json);
      if (res.status !== 404 || error?.type !== 'not_found_error') return;
      ensureNullCodeAndParam(t, res, error, what);
    });
  },
  { key: 'code-and-param-null', judges: ['ERR-5'], states: ['deleted'] },
);

check(
  'ERR-8',
  'an unknown path under /api/v1/ is 404 with the error envelope',
  async (t) => {
    const workspace = t.run.preflight.collections.workspaces?.ids[0] ?? 'conformance';
    const unknown = [
      { method: 'GET', path: '/api/v1/conformance_unknown_endpoint' },
      { method: 'GET', path: `/api/v1/workspaces/${encodeURIComponent(workspace)}/conformance_unknown_child` },
    ];
    for (const request of unknown) {
      const res = await t.http.send(request);
      t.ensure(res.status === 404, () => `${request.method} ${request.path} answered ${res.status}, expected 404 for a path the API does not have`, res);
      t.ensure(isErrorEnvelope(res.json), () => `the 404 for ${request.method} ${request.path} is not the error envelope: ${snippet(res.text)}`, res);
    }
  },
  { key: 'unknown-path' },
);
