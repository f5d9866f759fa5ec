import {
  BESIDE,
  check,
  type CheckContext,
  type Credential,
  type HttpResponse,
  errorOf,
  hasValueAnywhere,
  isErrorEnvelope,
  fillPath,
  collections,
  type CollectionName,
  KEY_CREATION_PATH,
  PROBE_PATH,
  idsOf,
  spread,
  profileFact,
} from '../src/kit.js';
import { CREDENTIAL_CARRIERS } from './catalogues/credential-carriers.js';
import { KEY_SPELLINGS, oneCharacterChanged } from './catalogues/key-spellings.js';
import { describeRefusedQuery, refusedQueryAt, type RefusedQuery } from './catalogues/refused-queries.js';
import { idsAs, listAs, sharedItem } from './support/cross-account.js';
import { allInOrder } from './support/in-order.js';
import { createSubmission, recordIfCreated, submit, SUBMISSIONS_PATH, validSubmission } from './support/submissions.js';

// AUTH: authentication and account scope (API document, Authentication).

/** One request of a probe, and what it got. A 429 left after the client's retries is not judged. */
interface Probe {
  readonly label: string;
  readonly res: HttpResponse;
  /**
   * A token whose length no key has: a target may call it incorrectly formatted and answer as for
   * a malformed header (AUTH-7's shape, not shown) instead of with the error envelope.
   */
  readonly formatOpen?: boolean;
}

interface Endpoint {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  readonly body?: unknown;
  readonly query?: Record<string, string>;
}

/** An id no target holds: probes of item paths need an id, and a real one is never required. */
const ABSENT_ID = 'conformance-absent-id';

/**
 * Every endpoint the document and the profile offer (API document, Operations; profile paths), with
 * a listed id for item paths. POSTs are left out under --read-only: a faulty target could act on
 * them.
 */
function everyEndpoint(t: CheckContext): Endpoint[] {
  const known = t.run.preflight.collections;
  const idOf = (name: CollectionName) => known[name]?.ids[0] ?? ABSENT_ID;
  const out: Endpoint[] = [];
  for (const endpoint of Object.values(collections(t.profile))) {
    if (endpoint.list) out.push({ method: 'GET', path: endpoint.list });
    if (endpoint.item) out.push({ method: 'GET', path: fillPath(endpoint.item, idOf(endpoint.name)) });
  }
  if (t.profile.paths.apiKey) out.push({ method: 'DELETE', path: fillPath(t.profile.paths.apiKey, ABSENT_ID) });
  const probe = t.profile.forbiddenProbe;
  if (probe) out.push({ method: probe.method as Endpoint['method'], path: probe.path });
  if (!t.run.readOnly) {
    const workspace = idOf('workspaces');
    const param = t.profile.submissions.workspaceQueryParam;
    out.push({
      method: 'POST',
      path: '/api/v1/submissions',
      body: { workspace_id: workspace, taxonomy_id: known.taxonomies?.ids[0] ?? ABSENT_ID, rows: [{ data: {} }] },
      ...(param ? { query: { [param]: workspace } } : {}),
    });
    out.push({ method: 'POST', path: KEY_CREATION_PATH, body: { name: t.keys.name('unauthenticated-probe') } });
  }
  return out;
}

/** Whether an endpoint reads a list of the document or the profile. */
function isList(t: CheckContext, endpoint: Endpoint): boolean {
  return endpoint.method === 'GET' && Object.values(collections(t.profile)).some((c) => c.list === endpoint.path);
}

/** A representative few for the malformed headers: a list, a retrieval, and key creation. */
function representativeEndpoints(t: CheckContext): Endpoint[] {
  const all = everyEndpoint(t);
  const retrieval = all.find((e) => e.method === 'GET' && !isList(t, e) && !e.path.includes(ABSENT_ID));
  const creation = all.find((e) => e.path === KEY_CREATION_PATH);
  return [{ method: 'GET' as const, path: PROBE_PATH }, ...(retrieval ? [retrieval] : []), ...(creation ? [creation] : [])];
}

/**
 * The query the `index`th probe to a list carries in turn (suites/catalogues/refused-queries.ts):
 * one a list refuses a live key; null for an endpoint that is no list.
 */
function refusedQueryOf(t: CheckContext, endpoint: Endpoint, index: number): RefusedQuery | null {
  return isList(t, endpoint) ? refusedQueryAt(index, t.run.seed) : null;
}

async function send(
  t: CheckContext,
  endpoint: Endpoint,
  auth: Credential,
  label: string,
  carried: { readonly query?: Readonly<Record<string, string>>; readonly headers?: Readonly<Record<string, string>> } = {},
): Promise<Probe> {
  const query = { ...endpoint.query, ...carried.query };
  const res = await t.http.send({
    method: endpoint.method,
    path: endpoint.path,
    auth,
    ...(Object.keys(query).length > 0 ? { query } : {}),
    ...(carried.headers ? { headers: carried.headers } : {}),
    ...(endpoint.body !== undefined ? { body: endpoint.body } : {}),
  });
  // A faulty target may create a key or a submission for a request it should have refused: the
  // key is taken charge of (redacted, deleted at the end of the run), the submission entered in the ledger.
  if (endpoint.method === 'POST' && endpoint.path === KEY_CREATION_PATH) await t.keys.adopt(res, (endpoint.body as { name?: string }).name ?? null);
  if (endpoint.method === 'POST' && endpoint.path === SUBMISSIONS_PATH) await recordIfCreated(t, res);
  return { label, res };
}

/**
 * The malformed Authorization headers of AUTH-2, built from the configured key so that only the
 * form is wrong. Letter case of the scheme and several spaces are legal (RFC 7235): not here.
 */
function malformedHeaders(t: CheckContext): { label: string; header: string }[] {
  const key = t.run.keys.main;
  // Declared or inferred: a wrong guess still makes a token that is no key, which is 401 too.
  const prefix = t.run.keyPrefix;
  const out = [
    { label: 'another scheme (Basic)', header: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
    { label: 'another scheme (Token)', header: `Token ${key}` },
    { label: 'Bearer with no token', header: 'Bearer' },
    { label: 'an extra part after the token', header: `Bearer ${key} ${key.slice(-6)}` },
  ];
  if (prefix && key.startsWith(prefix)) out.push({ label: 'a token without the key prefix', header: `Bearer ${key.slice(prefix.length)}` });
  return out;
}

// The probes are shared by the clauses that judge them (AUTH-1/2/7, AUTH-3/8), so that requests
// without a key, which count against the per-IP limit of 20 a minute, are sent once per run.
// They go one after another: sent at once, they race any other client on the same address (two
// CI jobs) for the per-IP budget the pacer reads from each answer, and meet more 429s.

// Each probe without the header carries a key of the run's own elsewhere, in the next of the
// carriers an implementation might also read a key from (suites/catalogues/credential-carriers.ts):
// still no Authorization header, still 401, at no request more. Never the configured key: a URL
// may be kept in a gateway's access log, and the run's keys are deleted at its end. A run without
// a key pool creates one for the purpose; one that may create no key (read-only) carries none.
const withoutHeader = (t: CheckContext) =>
  t.once('without header', async () => {
    const out: Probe[] = [];
    const pool = t.run.keyPool;
    const own = pool.length > 0 || t.run.readOnly ? null : await t.attempt(() => t.keys.forCheck('carried'));
    const carried = pool.length > 0 ? pool : own?.outcome === 'done' ? [own.value.secret] : [];
    try {
      let listed = 0;
      for (const [index, endpoint] of everyEndpoint(t).entries()) {
        const refused = refusedQueryOf(t, endpoint, listed);
        if (refused) listed++;
        const label = `[${endpoint.method}] ${endpoint.path} without an Authorization header${describeRefusedQuery(refused)}`;
        const carrier = carried.length > 0 ? CREDENTIAL_CARRIERS[index % CREDENTIAL_CARRIERS.length]! : null;
        const carry = carrier ? carrier.carry(carried[index % carried.length]!) : {};
        const query = { ...refused?.query, ...carry.query };
        out.push(
          await send(t, endpoint, 'none', carrier ? `${label}, a key of the run in ${carrier.name}` : label, {
            ...(Object.keys(query).length > 0 ? { query } : {}),
            ...(carry.headers ? { headers: carry.headers } : {}),
          }),
        );
      }
    } finally {
      if (own?.outcome === 'done') await t.keys.discard(own.value);
    }
    return out;
  });

const withMalformedHeader = (t: CheckContext) =>
  t.once('malformed header', async () => {
    const out: Probe[] = [];
    for (const endpoint of representativeEndpoints(t)) {
      for (const [index, { label, header }] of malformedHeaders(t).entries()) {
        const refused = refusedQueryOf(t, endpoint, index);
        const what = `[${endpoint.method}] ${endpoint.path} with ${label}${describeRefusedQuery(refused)}`;
        out.push(await send(t, endpoint, { header }, what, refused ? { query: refused.query } : {}));
      }
    }
    return out;
  });

// Every spelling of the catalogue, from the configured key: used since the run began, so that a
// cache in front of the lookup holds it.
const withUnknownKey = (t: CheckContext) =>
  t.once('unknown key', async () => {
    const out: Probe[] = [];
    for (const [index, spelling] of KEY_SPELLINGS.entries()) {
      const key = spelling.spell(t.run.keys.main, t.run.keyPrefix);
      if (key === null) continue;
      // PROBE_PATH is a list: it carries a query it would refuse a live key, in turn.
      const refused = refusedQueryAt(index, t.run.seed);
      const label = `[GET] ${PROBE_PATH} with a real key, ${spelling.name}${describeRefusedQuery(refused)}`;
      const probe = await send(t, { method: 'GET', path: PROBE_PATH }, { key, kind: 'invalid' }, label, { query: refused.query });
      out.push({ ...probe, formatOpen: spelling.lengthChanged });
    }
    return out;
  });

/** A key created, seen to work and deleted: its secret, or null when keys cannot be created or deleted here. */
const revokedKey = (t: CheckContext) =>
  t.once('revoked key secret', async (): Promise<string | null> => {
    if (t.run.readOnly || !t.profile.paths.apiKey || !t.profile.apiKeyFields.id) return null;
    const created = await t.attempt(() => t.keys.forCheck('revoked-probe'));
    if (created.outcome !== 'done') return null;
    const key = created.value;
    const deleted = await t.keys.delete(key);
    // Not deleted: KEY-5 judges deletion; the run's cleanup deletes the key from the ledger.
    if (deleted.status < 200 || deleted.status >= 300) return null;
    return key.secret;
  });

/** A GET with a revoked key: empty when keys cannot be created or deleted here. */
const withRevokedKey = (t: CheckContext) =>
  t.once('revoked key', async () => {
    const secret = await revokedKey(t);
    if (secret === null) return [];
    return [await send(t, { method: 'GET', path: PROBE_PATH }, { key: secret, kind: 'invalid' }, `[GET] ${PROBE_PATH} with a key just deleted`)];
  });

/**
 * The writes the run itself makes (API document, Operations; the profile's key path), each as a
 * conformant target would carry it out for a valid key: a submission, a key, the deletion of a
 * key (one no account holds, so that a faulty target deletes nothing).
 */
function everyWrite(t: CheckContext): Endpoint[] {
  const known = t.run.preflight.collections;
  const workspace = known.workspaces?.ids[0] ?? ABSENT_ID;
  const param = t.profile.submissions.workspaceQueryParam;
  return [
    {
      method: 'POST',
      path: SUBMISSIONS_PATH,
      body: { workspace_id: workspace, taxonomy_id: known.taxonomies?.ids[0] ?? ABSENT_ID, rows: [{ data: {} }] },
      ...(param ? { query: { [param]: workspace } } : {}),
    },
    { method: 'POST', path: KEY_CREATION_PATH, body: { name: t.keys.name('dead-key-probe') } },
    ...(t.profile.paths.apiKey ? [{ method: 'DELETE' as const, path: fillPath(t.profile.paths.apiKey, ABSENT_ID) }] : []),
  ];
}

/** Probes that got an answer to judge; a 429 that outlasted the client's retries is left out. */
function judged(t: CheckContext, probes: readonly Probe[]): Probe[] {
  const out = probes.filter((p) => p.res.status !== 429);
  if (out.length === 0) t.skip('every probe was rate limited (429) after the client waited and retried');
  return out;
}

/** Fails with the first offender, naming how many more there were; evidence: the first three. */
function failOn(t: CheckContext, offenders: readonly { probe: Probe; why: string }[]): void {
  if (offenders.length === 0) return;
  const more = offenders.length > 1 ? ` (and ${offenders.length - 1} more)` : '';
  t.fail(`${offenders[0]!.probe.label}: ${offenders[0]!.why}${more}`, ...offenders.slice(0, 3).map((o) => o.probe.res));
}

const unauthorised = (probes: readonly Probe[]) =>
  probes.filter((p) => p.res.status !== 401).map((probe) => ({ probe, why: `answered ${probe.res.status}, expected 401` }));

check(
  'AUTH-1',
  'every endpoint answers 401 without the Authorization header',
  async (t) => {
    failOn(t, unauthorised(judged(t, await withoutHeader(t))));
  },
  { key: 'no-header', ...BESIDE },
);

check(
  'AUTH-2',
  'another scheme, Bearer with no token, a token without the prefix and extra parts are 401',
  async (t) => {
    failOn(t, unauthorised(judged(t, await withMalformedHeader(t))));
  },
  { key: 'malformed-header', values: ['empty'], ...BESIDE },
);

check(
  'AUTH-7',
  'the 401 for a missing or malformed header is JSON with type authentication_error',
  async (t) => {
    const answered = [...(await withoutHeader(t)), ...(await withMalformedHeader(t))].filter((p) => p.res.status === 401);
    if (answered.length === 0) t.skip('no probe was answered 401 (AUTH-1 and AUTH-2 say why)');
    failOn(
      t,
      answered.flatMap((probe) => {
        if (probe.res.exchange.response?.json !== 'ok') return [{ probe, why: 'the 401 body is not JSON' }];
        return hasValueAnywhere(probe.res.json, 'authentication_error')
          ? []
          : [{ probe, why: 'no member of the 401 body, at any depth, has the value "authentication_error"' }];
      }),
    );
  },
  { key: 'header-refusal-shape', judges: ['AUTH-1', 'AUTH-2'], values: ['empty'], ...BESIDE },
);

/** AUTH-3: 401 in the error envelope with type authentication_error (or, for a token of no key's length, as for a malformed header). */
function notAnAuthenticationError(probes: readonly Probe[]): { probe: Probe; why: string }[] {
  return probes.flatMap((probe) => {
    const { res } = probe;
    if (res.status !== 401) return [{ probe, why: `answered ${res.status}, expected 401` }];
    if (probe.formatOpen && !isErrorEnvelope(res.json))
      return hasValueAnywhere(res.json, 'authentication_error')
        ? []
        : [{ probe, why: 'no member of the 401 body, at any depth, has the value "authentication_error"' }];
    if (!isErrorEnvelope(res.json)) return [{ probe, why: 'the 401 body is not the error envelope' }];
    const type = errorOf(res.json)?.type;
    return type === 'authentication_error' ? [] : [{ probe, why: `the 401 has type "${type}", expected "authentication_error"` }];
  });
}

check(
  'AUTH-3',
  "a real key with one secret character changed, its secret's letters in the other case, a character added or its last cut is 401 authentication_error",
  async (t) => {
    failOn(t, notAnAuthenticationError(judged(t, await withUnknownKey(t))));
  },
  { key: 'altered-secret', ...BESIDE },
);

check(
  'AUTH-3',
  'a revoked key is 401 authentication_error in the error envelope',
  async (t) => {
    if ((await withRevokedKey(t)).length === 0) t.skip('no key could be created and deleted here (KEY-1 and KEY-5 say why)');
    failOn(t, notAnAuthenticationError(judged(t, await withRevokedKey(t))));
  },
  {
    key: 'revoked-key',
    ...BESIDE,
    states: ['deleted'],
    writes: true,
    applies: (run) =>
      run.profile.paths.apiKey && run.profile.apiKeyFields.id ? true : 'not declared: the key path and key id member (a key cannot be revoked)',
  },
);

// "Every request" (Authentication, rule 1; KEY-5): a dead key is tried on each write the run
// makes, not on GET alone. A few requests: the unknown key's count against the per-IP budget on
// targets that count failed credentials (RATE-7).
check(
  'AUTH-3',
  'an unknown or a revoked key is 401 authentication_error on every write the run makes: POST a submission, POST a key, DELETE a key',
  async (t) => {
    const unknown = oneCharacterChanged(t.run.keys.main, t.run.keyPrefix);
    const revoked = await revokedKey(t);
    const dead = [
      { key: unknown, as: 'a real key with one secret character changed' },
      ...(revoked === null ? [] : [{ key: revoked, as: 'a key just deleted' }]),
    ];
    const probes: Probe[] = [];
    for (const { key, as } of dead) {
      for (const endpoint of everyWrite(t)) probes.push(await send(t, endpoint, { key, kind: 'invalid' }, `[${endpoint.method}] ${endpoint.path} with ${as}`));
    }
    failOn(t, notAnAuthenticationError(judged(t, probes)));
  },
  { key: 'unknown-or-revoked-on-writes', states: ['deleted'], writes: true, ...BESIDE },
);

check(
  'AUTH-8',
  'the 401 for an unknown or revoked key has code null and param null',
  async (t) => {
    // A token of no key's length answered as a malformed header has no envelope to judge.
    const probes = [...(await withUnknownKey(t)), ...(await withRevokedKey(t))].filter(
      (p) => p.res.status === 401 && errorOf(p.res.json) !== null && !(p.formatOpen && !isErrorEnvelope(p.res.json)),
    );
    if (probes.length === 0) t.skip('no unknown or revoked key was answered 401 with an error object (AUTH-3 says why)');
    failOn(
      t,
      probes.flatMap((probe) => {
        const error = errorOf(probe.res.json)!;
        const wrong = [error.code !== null && `code ${JSON.stringify(error.code)}`, error.param !== null && `param ${JSON.stringify(error.param)}`].filter(
          Boolean,
        );
        return wrong.length === 0 ? [] : [{ probe, why: `the 401 has ${wrong.join(' and ')}, expected null` }];
      }),
    );
  },
  { key: 'code-and-param-null', judges: ['AUTH-3'], states: ['deleted'], ...BESIDE },
);

check(
  'AUTH-4',
  "the profile's forbidden probe is 403 authorization_error",
  async (t) => {
    const probe = t.profile.forbiddenProbe!;
    const res = await t.http.send({ method: probe.method, path: probe.path });
    t.ensure(res.status === 403, () => `[${probe.method}] ${probe.path} with a valid key answered ${res.status}, expected 403`, res);
    const type = errorOf(t.json(res))?.type;
    t.ensure(type === 'authorization_error', () => `the 403 has type ${JSON.stringify(type ?? null)}, expected "authorization_error"`, res);
  },
  { key: 'forbidden-probe', ...BESIDE },
);

check(
  'AUTH-5',
  'every key the API reveals starts with the key prefix',
  async (t) => {
    const prefix = t.profile.keyPrefix!;
    await t.keys.using('prefix', async (key) => {
      // A key that does not start with the declared prefix is explained by a wrong declaration as well: the fact is named.
      t.ensure(
        key.secret.startsWith(prefix),
        () => `a created key does not start with the prefix "${prefix}" (${profileFact(t.profile, 'keyPrefix')}: is it right?)`,
        key.response,
      );
      const others = (await t.secrets.revealed()).filter((s) => !s.startsWith(prefix));
      t.ensure(
        others.length === 0,
        () =>
          `${others.length} key(s) revealed earlier in the run do not start with the prefix "${prefix}" (${profileFact(t.profile, 'keyPrefix')}: is it right?)`,
        key.response,
      );
    });
  },
  { key: 'key-prefix', states: ['fresh'], writes: true, ...BESIDE },
);

// AUTH-6: a key sees only its own account. Ids present in both accounts' lists are left out of
// the retrievals, so that a target with per-account ids is not blamed for a coincidence.

const SCOPED: readonly CollectionName[] = ['workspaces', 'governanceModels', 'records', 'taxonomies', 'fields', 'picklists'];

check(
  'AUTH-6',
  "another account's resources are 404 not_found_error to a key, both ways, also right after their own account read them",
  async (t) => {
    // The collections beside each other (suites/support/in-order.ts), each one's ids in turn.
    const probed = await allInOrder(
      SCOPED.map(async (name) => {
        const { list, item, idField } = collections(t.profile)[name];
        if (!list || !item) return [];
        const mine = idsOf((await t.lists.fetchPage(list, { limit: 100 })).page.items, idField ?? 'id');
        const theirs = await idsAs(t, list, 'other', idField ?? 'id');
        // Each direction's second item is read by its own account just before (a state of the item):
        // a cache of items keyed by id alone, not by account, serves it to the other key only then.
        const probes = (ids: readonly string[], as: 'main' | 'other') => spread(ids, 2).map((id, index) => ({ id, as, read: index === 1 }));
        const pairs = [
          ...probes(
            mine.filter((id) => !theirs.includes(id)),
            'other',
          ),
          ...probes(
            theirs.filter((id) => !mine.includes(id)),
            'main',
          ),
        ];
        const answers: { name: string; id: string; as: 'main' | 'other'; read: boolean; res: HttpResponse }[] = [];
        for (const { id, as, read } of pairs) {
          if (read) await t.http.get(fillPath(item, id), { auth: as === 'other' ? 'main' : 'other' });
          answers.push({ name, id, as, read, res: await t.http.get(fillPath(item, id), { auth: as }) });
        }
        return answers;
      }),
    );
    const answers = probed.flat();
    for (const { name, id, as, read, res } of answers) {
      const whose = as === 'other' ? "the main account's" : "the other account's";
      const after = read ? ', right after its own account read it,' : '';
      t.ensure(
        res.status === 404,
        () =>
          `${whose} ${name} item ${id}${after} retrieved with ${as === 'other' ? "the other account's key" : 'the main key'} answered ${res.status}, expected 404`,
        res,
      );
      const type = errorOf(res.json)?.type;
      t.ensure(type === 'not_found_error', () => `the 404 for ${whose} ${name} item has type ${JSON.stringify(type ?? null)}, expected "not_found_error"`, res);
    }
    if (answers.length === 0) t.skip('no collection with a retrieval path holds items in one account only');
  },
  { key: 'cross-account-404', ...BESIDE },
);

check(
  'AUTH-6',
  "another account's resources never appear in a key's lists",
  async (t) => {
    let compared = 0;
    // The collections beside each other (suites/support/in-order.ts), both accounts' lists of
    // each in turn, compared in order.
    const lists = await allInOrder(
      Object.values(collections(t.profile)).map(async (endpoint) => {
        if (!endpoint.list) return null;
        return { endpoint, mine: await listAs(t, endpoint.list, 'main'), theirs: await listAs(t, endpoint.list, 'other') };
      }),
    );
    for (const listed of lists) {
      if (!listed) continue;
      const { endpoint, mine, theirs } = listed;
      const field = endpoint.idField ?? 'id';
      if (!mine || !theirs) continue;
      compared += mine.items.length + theirs.items.length;
      const shared = sharedItem(mine.items, theirs.items, field);
      if (shared !== null) t.fail(`${endpoint.list} shows the same item ${shared} to the keys of both accounts`, mine.res, theirs.res);
    }
    if (compared === 0) t.skip('every list of both accounts is empty');
  },
  { key: 'cross-account-lists', ...BESIDE },
);

check(
  'AUTH-6',
  "a key cannot submit into another account's workspace, named in the query, the body or both",
  async (t) => {
    const theirs = await idsAs(t, '/api/v1/workspaces', 'other');
    const mine = t.run.preflight.collections.workspaces?.ids ?? [];
    const foreign = theirs.find((id) => !mine.includes(id));
    if (!foreign) t.skip('the other account lists no workspace of its own');
    const valid = validSubmission(t);
    const listPath = t.profile.paths.submissionList;
    const filter = t.profile.submissions.listFilters?.workspace;
    const before = listPath && filter ? await countIn(t, listPath, filter, foreign!) : { res: null, total: null };
    const param = t.profile.submissions.workspaceQueryParam;
    const theirBody = { ...valid.body, workspace_id: foreign };
    // Named everywhere it can be, the workspace is the other account's: the submission is refused.
    // Named in one place beside the key's own workspace in the other, a server may take either as
    // the target (the document does not say): only the counts below judge those.
    const attempts: { where: string; body: unknown; query: Record<string, string>; refused: boolean }[] = param
      ? [
          { where: 'in the query and the body', body: theirBody, query: { ...valid.query, [param]: foreign! }, refused: true },
          ...(listPath && filter
            ? [
                { where: 'in the body only', body: theirBody, query: valid.query, refused: false },
                { where: 'in the query only', body: valid.body, query: { ...valid.query, [param]: foreign! }, refused: false },
              ]
            : []),
        ]
      : [{ where: 'in the body', body: theirBody, query: valid.query, refused: true }];
    for (const { where, body, query, refused } of attempts) {
      // An attempt a target may accept creates a submission, which cannot be deleted: it is sent
      // only where the run's cap (`--max-submissions`) leaves room, and left out otherwise.
      const res = refused ? await submit(t, body, query) : await createSubmission(t, body, query);
      if (!res) continue;
      // 404 not_found_error is the document's reading ("not reachable by the key"); 403 and 422 refuse too.
      if (refused)
        t.ensure(
          res.status >= 400 && res.status < 500,
          () => `a submission naming another account's workspace ${foreign} ${where} answered ${res.status}, expected a refusal (404)`,
          res,
        );
    }
    // Whatever was answered, nothing was written there: the other account's count for its workspace
    // stays, and the main key lists no submission in a workspace it cannot see.
    if (!listPath || !filter) return;
    const after = await countIn(t, listPath, filter, foreign!);
    t.ensure(
      before.total === null || after.total === null || after.total === before.total,
      () =>
        `the other account's submissions in its workspace ${foreign} went from ${before.total} to ${after.total} while this run's attempts there were refused`,
      after.res,
    );
    // A leak is called only for an item shown to be the other account's: one the other account lists
    // too (same content), or one whose workspace is the other's. Under a filter that does not narrow (a wrong filter
    // name, ignored), the main key's own items come back: that is SUB-4's finding about the filter.
    const seen = await itemsIn(t, listPath, filter, foreign!, 'main');
    if (seen.items.length === 0) return;
    // By id and content both: a target whose ids count per account may give two accounts the same id.
    const listedToThem = new Set(
      [...(await itemsIn(t, listPath, filter, foreign!, 'other')).items, ...((await listAs(t, listPath, 'other'))?.items ?? [])].map((item) =>
        JSON.stringify(item),
      ),
    );
    const shown = seen.items.filter((item) => {
      const members = typeof item === 'object' && item !== null ? Object.values(item as Record<string, unknown>) : [];
      return listedToThem.has(JSON.stringify(item)) || members.includes(foreign);
    });
    t.ensure(
      shown.length === 0,
      () =>
        `${listPath}?${filter}=${foreign} shows the main key ${shown.length} submission(s) of another account (${idsOf(shown).slice(0, 3).join(', ') || 'in its workspace'})`,
      seen.res,
    );
  },
  { key: 'cross-account-submission', writes: true, ...BESIDE },
);

/** total_count of a submission list filtered to one workspace, as one account sees it; null when no page came. */
async function countIn(
  t: CheckContext,
  listPath: string,
  filter: string,
  workspace: string,
  auth: 'main' | 'other' = 'other',
): Promise<{ res: HttpResponse; total: number | null }> {
  const res = await t.http.get(listPath, { auth, query: { [filter]: workspace, limit: 1 } });
  const total = (res.json as { total_count?: unknown } | undefined)?.total_count;
  return { res, total: res.status === 200 && typeof total === 'number' ? total : null };
}

/** The first page of a submission list filtered to one workspace, as one account sees it; no items when no page came. */
async function itemsIn(
  t: CheckContext,
  listPath: string,
  filter: string,
  workspace: string,
  auth: 'main' | 'other',
): Promise<{ res: HttpResponse; items: unknown[] }> {
  const res = await t.http.get(listPath, { auth, query: { [filter]: workspace, limit: 100 } });
  const items = (res.json as { items?: unknown } | undefined)?.items;
  return { res, items: res.status === 200 && Array.isArray(items) ? items : [] };
}

check(
  'AUTH-6',
  "another account's key cannot delete this account's key",
  async (t) => {
    await t.keys.using('other-account-delete', async (key) => {
      // Ids may be counted per account ("1" in each): where the other account lists a key of this
      // id, its DELETE would delete its own key, perhaps the one the run was given. Not sent.
      const theirs = await idsAs(t, t.profile.paths.apiKeyList, 'other', t.profile.apiKeyFields.id!);
      if (theirs.includes(key.id!))
        t.skip(`the other account lists a key of its own with the id ${key.id}: ids are counted per account, and its DELETE would delete that key`);
      const res = await t.http.delete(fillPath(t.profile.paths.apiKey!, key.id!), { auth: 'other' });
      t.ensure(res.status === 404, () => `deleting the main account's key with the other account's key answered ${res.status}, expected 404`, res);
      const still = await t.http.get(PROBE_PATH, { auth: t.keys.credential(key) });
      t.ensure(still.status === 200, () => `after the other account's key tried to delete it, the key answered ${still.status}`, res, still);
    });
  },
  {
    key: 'cross-account-key-deletion',
    ...BESIDE,
    states: ['fresh'],
    writes: true,
    applies: (run) => (run.profile.paths.apiKey && run.profile.apiKeyFields.id ? true : 'not declared: the key path and key id member'),
  },
);
