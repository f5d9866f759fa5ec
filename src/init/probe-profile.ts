import { randomBytes } from 'node:crypto';
import { ledgerEntry, UNKNOWN_ID, type LedgerEntry } from '../broker/ledger.js';
import { DOCUMENT_LIMITS } from '../profile/profile.js';
import { errorOf, isObject, itemsOf, probe, totalOf, type Probed, type ProbeTarget } from './probe-http.js';
import { rateHeaders } from '../http/rate-headers.js';
import { collectionForms, deletionCandidates, idMemberOf } from '../keys/deletion.js';
import { runKeyName } from '../keys/run-key-name.js';
import { SUBMISSION_CREATION_PATH } from '../broker/submission-cap.js';
import { filtersNamed, linksIn, listPathsNamed, type Link } from './links.js';

/**
 * How `init` knows a fact: it saw the target answer so (`found`), it wrote the usual value unseen
 * (`guessed`), or it could not find it (`not found`: null in the draft, to be declared).
 */
export type How = 'found' | 'guessed' | 'not found';

export interface Fact {
  readonly value: unknown;
  readonly how: How;
  /** What was sent and seen, or why it could not be. */
  readonly why: string;
}

/** Facts by their place in the profile, dotted: `paths.workspace`, `submissions.listFilters`. */
export type Facts = Record<string, Fact>;

const probed = (value: unknown, why: string): Fact => ({ value, how: 'found', why });
const guessed = (value: unknown, why: string): Fact => ({ value, how: 'guessed', why });
/** A fact init looked for and could not see: null in the draft, never shown as a value it learnt. */
const notFound = (why: string): Fact => ({ value: null, how: 'not found', why: `${why}: declare it` });

/** Resources with a list the document shows and a retrieval it leaves open (API document, Operations). */
const RETRIEVALS = [
  ['workspace', '/api/v1/workspaces'],
  ['governanceModel', '/api/v1/governance_models'],
  ['record', '/api/v1/records'],
] as const;

/**
 * Lists and retrievals the document names without their paths: the stem a link to the list has in
 * its last segment, then the usual places of each list.
 */
const LISTED = [
  ['taxonomies', 'taxonomy', 'taxonom', '/api/v1/taxonomies'],
  ['fields', 'field', 'field', '/api/v1/fields', '/api/v1/taxonomy_fields'],
  ['picklists', 'picklist', 'picklist', '/api/v1/picklists'],
] as const;

/** The string ids of a page's items. */
const idsIn = (items: Record<string, unknown>[] | null): string[] => (items ?? []).map((item) => item.id).filter((id): id is string => typeof id === 'string');

/** The first of the lists' singular and plural forms (`collectionForms`) that answers a pagination envelope. */
async function findList(
  target: ProbeTarget,
  lists: readonly string[],
): Promise<{ list: string; items: Record<string, unknown>[]; tried: string[] } | { list: null; items: null; tried: string[] }> {
  const tried: string[] = [];
  for (const candidate of [...new Set(lists.flatMap((l) => collectionForms(l)))]) {
    const listed = await probe(target, 'GET', candidate, { query: { limit: '1' } });
    const items = itemsOf(listed);
    if (items) return { list: candidate, items, tried };
    tried.push(`${candidate} (${listed.status})`);
  }
  return { list: null, items: null, tried };
}

/** Where admin-only endpoints usually live: the first to answer 403 becomes the forbidden probe (AUTH-4). */
const FORBIDDEN_CANDIDATES = ['/api/v1/admin/audit_log', '/api/v1/admin/users', '/api/v1/admin/settings', '/api/v1/admin', '/api/v1/audit_log'];

const BODY_FIELDS = ['workspace_id', 'taxonomy_id', 'rows'] as const;
/** Values of the wrong type, so that a probe of required fields can never create a submission. */
const WRONG_TYPED: Record<(typeof BODY_FIELDS)[number], unknown> = { workspace_id: 0, taxonomy_id: 0, rows: 'not-an-array' };

/**
 * Probes the conventional places of the facts the document leaves open. Only one probe changes
 * anything: a key is created to learn its fields and prefix, then deleted.
 */
export async function probeFacts(target: ProbeTarget, log: (line: string) => void): Promise<Facts> {
  const facts: Facts = {};
  const firstIds: Record<string, string | null> = {};
  // The API's own links, where it gives any, name paths before the usual places are tried.
  const index = await probe(target, 'GET', '/api/v1');
  const workspaces = await probe(target, 'GET', '/api/v1/workspaces', { query: { limit: '5' } });
  const links = linksIn(index.json, workspaces.json);
  const ids: Record<'workspace' | 'taxonomy', string[]> = { workspace: idsIn(itemsOf(workspaces)), taxonomy: [] };
  for (const [name, list] of RETRIEVALS) {
    const { fact, firstId } = await retrieval(target, list);
    facts[`paths.${name}`] = fact;
    firstIds[name] = firstId;
  }
  for (const [listName, itemName, stem, ...lists] of LISTED) {
    const found = await findList(target, [...listPathsNamed(links, stem), ...lists]);
    if (!found.list) {
      facts[`paths.${listName}`] = notFound(`no pagination envelope at ${found.tried.join(', ')}`);
      facts[`paths.${itemName}`] = notFound(`no list at ${lists.join(' or ')}`);
      continue;
    }
    facts[`paths.${listName}`] = probed(found.list, `GET ${found.list} answered 200 with a pagination envelope`);
    facts[`paths.${itemName}`] = (await retrieval(target, found.list)).fact;
    if (listName === 'taxonomies') {
      firstIds.taxonomy = typeof found.items[0]?.id === 'string' ? found.items[0].id : null;
      const taxonomies = await probe(target, 'GET', found.list, { query: { limit: '5' } });
      ids.taxonomy = idsIn(itemsOf(taxonomies));
      links.push(...linksIn(taxonomies.json));
    }
  }
  Object.assign(facts, await limits(target));
  Object.assign(facts, await keys(target, log, links));
  Object.assign(facts, await submissions(target, firstIds.workspace ?? null, links, ids));
  facts.forbiddenProbe = await forbidden(target);
  return facts;
}

/** The retrieval of a list's items: `{form}/{id}` for each singular and plural form of the list path, the first that answers the item. */
async function retrieval(target: ProbeTarget, list: string): Promise<{ fact: Fact; firstId: string | null }> {
  const listed = await probe(target, 'GET', list, { query: { limit: '1' } });
  const id = itemsOf(listed)?.[0]?.id;
  const conventional = `${list}/{id}`;
  if (typeof id !== 'string') return { fact: guessed(conventional, `GET ${list} gave no item to fetch (status ${listed.status})`), firstId: null };
  const tried: string[] = [];
  for (const template of collectionForms(list).map((form) => `${form}/{id}`)) {
    const path = template.replace('{id}', encodeURIComponent(id));
    const fetched = await probe(target, 'GET', path);
    const body = unwrapped(fetched.json);
    if (fetched.status === 200 && isObject(body) && body.id === id) return { fact: probed(template, `GET ${path} answered 200 with the same id`), firstId: id };
    tried.push(`GET ${path} answered ${fetched.status}`);
  }
  return { fact: notFound(`${tried.join(', ')}: no retrieval at the usual paths`), firstId: id };
}

/**
 * Some APIs wrap a single resource in a member (`data`, or its kind: `workspace`); a record has a
 * `data` member of its own, so a body is unwrapped only when it has no id and one object member.
 */
function unwrapped(json: unknown): unknown {
  if (!isObject(json) || 'id' in json) return json;
  const objects = Object.values(json).filter(isObject);
  return objects.length === 1 && Object.keys(json).length === 1 ? objects[0] : isObject(json.data) ? json.data : json;
}

async function limits(target: ProbeTarget): Promise<Facts> {
  const limitOf = (probed: Probed) => rateHeaders(Object.fromEntries(probed.headers)).limit;
  const keyed = limitOf(await probe(target, 'GET', '/api/v1/workspaces', { query: { limit: '1' } }));
  const anonymous = limitOf(await probe(target, 'GET', '/api/v1/workspaces', { key: null, query: { limit: '1' } }));
  return {
    'limits.perKeyPerMinute': keyed
      ? probed(keyed, `X-RateLimit-Limit: ${keyed} on an authenticated response`)
      : guessed(DOCUMENT_LIMITS.perKeyPerMinute, 'no X-RateLimit-Limit header: the document figure'),
    'limits.unauthenticatedPerMinute': anonymous
      ? probed(anonymous, `X-RateLimit-Limit: ${anonymous} on a response without a key`)
      : guessed(DOCUMENT_LIMITS.unauthenticatedPerMinute, 'no X-RateLimit-Limit header without a key: the document figure'),
    'limits.windowSeconds': guessed(DOCUMENT_LIMITS.windowSeconds, "the document's minute; a response does not tell the window's length"),
  };
}

/** Creates a key, learns its fields and prefix from it, and deletes it again. */
async function keys(target: ProbeTarget, log: (line: string) => void, links: readonly Link[]): Promise<Facts> {
  const facts: Facts = {};
  const foundList = await findList(target, [...listPathsNamed(links, 'key'), '/api/v1/api_keys']);
  const listPath = foundList.list;
  facts['paths.apiKeyList'] = listPath
    ? probed(listPath, `GET ${listPath} answered 200 with a pagination envelope`)
    : notFound(`no pagination envelope at ${foundList.tried.join(', ')}`);
  // Named as the run names its keys, and in the ledger before it exists: `cleanup` finds it.
  const name = runKeyName(target.runId, 'init');
  const run = { runId: target.runId, baseUrl: target.http.baseUrl };
  const ledger = (event: LedgerEntry['event'], id: string, note?: string) => target.ledger.add(ledgerEntry(run, { event, id, name, note }));
  ledger('creating', UNKNOWN_ID);
  const created = await probe(target, 'POST', '/api/v1/api_keys', { body: { name } });
  const unknown = (why: string): Facts => ({
    ...facts,
    keyPrefix: notFound(why),
    'apiKeyFields.id': guessed('id', why),
    'apiKeyFields.secret': guessed('key', why),
    'apiKeyFields.name': guessed('name', why),
    'apiKeyFields.lastUsedAt': guessed('last_used_at', why),
    'paths.apiKey': guessed('/api/v1/api_keys/{id}', why),
  });
  if (created.status < 200 || created.status > 299) ledger('not_created', UNKNOWN_ID, `answered ${created.status}`);
  if (created.status < 200 || created.status > 299 || !isObject(created.json))
    return unknown(`POST /api/v1/api_keys answered ${created.status}: no key to learn from`);
  const body = created.json;
  const members = Object.entries(body);
  let secretField: string | null = null;
  // The secret is the member that authenticates; likely names are tried first to spare requests.
  const candidates = members
    .filter(([, v]) => typeof v === 'string' && v !== name && v.length >= 16)
    .sort(([a], [b]) => Number(/key|secret|token/i.test(b)) - Number(/key|secret|token/i.test(a)));
  for (const [member, value] of candidates) {
    if ((await probe(target, 'GET', '/api/v1/workspaces', { key: value as string, query: { limit: '1' } })).status === 200) {
      secretField = member;
      break;
    }
  }
  const secret = secretField ? (body[secretField] as string) : null;
  const idField = idMemberOf(body);
  const id = idField ? String(body[idField]) : null;
  ledger('created', id ?? UNKNOWN_ID);
  const nameField = members.find(([, v]) => v === name)?.[0] ?? null;
  const afterList = listPath ? itemsOf(await probe(target, 'GET', listPath, { query: { limit: '10000' } })) : null;
  const listed2 = afterList?.find((item) => idField !== null && String(item[idField]) === id) ?? body;
  const lastUsedField = Object.keys(listed2).find((m) => /last.?used/i.test(m)) ?? null;
  const seen = 'POST /api/v1/api_keys answered with';
  facts['apiKeyFields.id'] = idField ? probed(idField, `${seen} the id in "${idField}"`) : guessed('id', `${seen} no string id member`);
  facts['apiKeyFields.secret'] = secretField
    ? probed(secretField, `${seen} the key in "${secretField}": it authenticated`)
    : guessed('key', `${seen} no member that authenticates`);
  facts['apiKeyFields.name'] = nameField ? probed(nameField, `${seen} the name sent in "${nameField}"`) : guessed('name', `${seen} the name in no member`);
  facts['apiKeyFields.lastUsedAt'] = lastUsedField
    ? probed(lastUsedField, `the key's list item has "${lastUsedField}"`)
    : guessed('last_used_at', 'no member named like last_used in the key list');
  facts.keyPrefix = prefixFact(target.key, secret);
  const deletion = id ? deletionCandidates({ keyPath: null, keyList: listPath }, target.http.baseUrl, created.headers.get('location'), body, id) : [];
  facts['paths.apiKey'] = await deleteKey(target, id, secret, deletion, log);
  if (facts['paths.apiKey'].value !== null && id) ledger('deleted', id);
  return facts;
}

/** The fixed start shared by the configured key and a new one, up to its last separator. */
function prefixFact(configured: string, created: string | null): Fact {
  if (!created) return notFound('no created key to compare with');
  let common = 0;
  while (common < Math.min(configured.length, created.length) && configured[common] === created[common]) common++;
  const shared = configured.slice(0, common);
  const cut = Math.max(shared.lastIndexOf('_'), shared.lastIndexOf('-'), shared.lastIndexOf('.'));
  if (cut <= 0) return notFound(`the configured key and a new one share no prefix ending in _ - or . (${common} characters in common)`);
  return probed(shared.slice(0, cut + 1), 'the start shared by the configured key and a newly created one');
}

/**
 * Deletes the key init created at the first candidate (`deletionCandidates`: the creation
 * response's links, then the forms of the key list's path) after which the key stops working. A
 * 5xx stops the search: the path may be right and the target failing, and the key stays in the ledger.
 */
async function deleteKey(
  target: ProbeTarget,
  id: string | null,
  secret: string | null,
  candidates: readonly string[],
  log: (line: string) => void,
): Promise<Fact> {
  const conventional = '/api/v1/api_keys/{id}';
  if (!id) {
    log(
      '  WARNING: the key init created has no id it could delete it by: `conformance cleanup` deletes it by its name once it is a day old, or delete it by hand',
    );
    return guessed(conventional, 'the created key had no id to delete it by');
  }
  const tried: string[] = [];
  for (const template of candidates) {
    const path = template.replace('{id}', encodeURIComponent(id));
    const deleted = await probe(target, 'DELETE', path);
    if (deleted.status >= 500 || deleted.status === 0) {
      log(
        `  WARNING: DELETE ${path} answered ${deleted.status}: the key ${id} is in the ledger, for \`conformance cleanup\` with a key path in the profile or --key-path, or delete it by hand`,
      );
      return notFound(`DELETE ${path} answered ${deleted.status}`);
    }
    if (deleted.status < 200 || deleted.status > 299) {
      tried.push(`DELETE ${path} answered ${deleted.status}`);
      continue;
    }
    const revoked = secret ? (await probe(target, 'GET', '/api/v1/workspaces', { key: secret, query: { limit: '1' } })).status : null;
    if (revoked !== null && revoked !== 401) {
      tried.push(`DELETE ${path} answered ${deleted.status} and the key then got ${revoked}`);
      continue;
    }
    return probed(template, `DELETE ${path} answered ${deleted.status}${revoked !== null ? ` and the key then got ${revoked}` : ''}`);
  }
  log(
    `  WARNING: ${tried.join(', ')}: the key ${id} is in the ledger, for \`conformance cleanup\` with a key path in the profile or --key-path, or delete it by hand`,
  );
  return notFound(tried.join(', '));
}

async function submissions(
  target: ProbeTarget,
  workspaceId: string | null,
  links: readonly Link[],
  ids: Record<'workspace' | 'taxonomy', readonly string[]>,
): Promise<Facts> {
  const facts: Facts = {};
  // Creation is where the document puts it; the list is where the API links to, or the usual place.
  const listPath = SUBMISSION_CREATION_PATH;
  const found = await findList(target, [...listPathsNamed(links, 'submission'), listPath]);
  facts['paths.submissionList'] = found.list
    ? probed(found.list, `GET ${found.list} answered 200 with a pagination envelope`)
    : notFound(`no pagination envelope at ${found.tried.join(', ')}`);
  for (const facet of ['workspace', 'taxonomy'] as const)
    facts[`submissions.listFilters.${facet}`] = found.list
      ? await filterName(target, found.list, facet, [...filtersNamed(links, found.list, ids[facet]), ...USUAL_FILTERS[facet]], ids[facet])
      : notFound('no submission list to filter');
  // Refused requests only: a body without fields, then wrong-typed fields, never a valid submission.
  const bare = await probe(target, 'POST', listPath, { body: {} });
  const bareError = errorOf(bare);
  const queryParam = bare.status === 400 && typeof bareError?.param === 'string' && bareError.path == null ? bareError.param : null;
  facts['submissions.workspaceQueryParam'] = queryParam
    ? probed(queryParam, `POST ${listPath} without a query answered 400 naming "${queryParam}" outside the body`)
    : guessed('workspace_id', `POST ${listPath} without a query answered ${bare.status} naming no query parameter`);
  facts['submissions.workspaceQueryParamRequired'] = queryParam
    ? probed(true, `POST ${listPath} without "${queryParam}" answered 400`)
    : notFound('not seen: whether the query parameter may be left out');
  facts['submissions.requiredBodyFields'] = await requiredFields(target, listPath, queryParam ?? 'workspace_id', workspaceId);
  facts['submissions.workspaceId'] = guessed(null, 'null: every submission of the run goes to the first item of the workspaces list');
  facts['submissions.taxonomyId'] = guessed(null, 'null: the run takes the first item of the taxonomies list');
  facts['submissions.sampleRow'] = guessed(null, 'null: the run sends {} as row data; declare a row the deployment accepts if it validates data');
  facts['submissions.acceptsAnyData'] = notFound('only a created submission would tell: true if any JSON object is accepted as row data (SUB-5)');
  return facts;
}

/** Filter names a submission list usually takes, after those the API's links name. */
const USUAL_FILTERS: Record<'workspace' | 'taxonomy', readonly string[]> = {
  workspace: ['workspace_id', 'workspaceId', 'workspace'],
  taxonomy: ['taxonomy_id', 'taxonomyId', 'taxonomy'],
};

/**
 * The name of a submission list's filter, kept only when it narrows a list that holds items: an
 * unknown id, or one of the account's own, gives fewer items than the unfiltered list. A name the
 * target ignores gives the same list, one it refuses no list: neither is kept.
 */
async function filterName(
  target: ProbeTarget,
  listPath: string,
  facet: 'workspace' | 'taxonomy',
  names: readonly string[],
  ids: readonly string[],
): Promise<Fact> {
  const total = totalOf(await probe(target, 'GET', listPath, { query: { limit: '1' } }));
  if (!total) return notFound(`${listPath} holds no item (total_count ${total}): a filter cannot be told from an ignored parameter`);
  const values = [`no-such-${facet}-${randomBytes(3).toString('hex')}`, ...ids.slice(0, 3)];
  for (const name of [...new Set(names)]) {
    for (const value of values) {
      const filtered = totalOf(await probe(target, 'GET', listPath, { query: { [name]: value, limit: '1' } }));
      if (filtered !== null && filtered < total) return probed(name, `${listPath}?${name}=${value} gave ${filtered} of ${total} items`);
    }
  }
  return notFound(`none of ${[...new Set(names)].join(', ')} narrowed ${listPath} (${total} items)`);
}

/** Fields a submission body may require, beyond those the document names: asked for at most this many times. */
const MAX_REQUIRED_PROBES = 8;

/**
 * Reads the required body fields from the 400s the target answers: an empty body, then one with
 * every field named so far filled with a wrong-typed value (so that no submission is ever
 * created), until the answer names no further missing field. Fields the document names keep its
 * order; others the target named follow.
 */
async function requiredFields(target: ProbeTarget, listPath: string, queryParam: string, workspaceId: string | null): Promise<Fact> {
  if (!workspaceId) return guessed([...BODY_FIELDS], 'no workspace to name in the query');
  const required: string[] = [];
  for (let step = 0; step < MAX_REQUIRED_PROBES; step++) {
    const body = Object.fromEntries(required.map((f) => [f, f in WRONG_TYPED ? WRONG_TYPED[f as keyof typeof WRONG_TYPED] : 0]));
    const answer = await probe(target, 'POST', listPath, { query: { [queryParam]: workspaceId }, body });
    const error = errorOf(answer);
    const named = fieldNamed(error);
    if (answer.status === 400 && named !== null && !required.includes(named)) {
      required.push(named);
      continue;
    }
    if (answer.status >= 200 && answer.status < 300)
      return guessed([...BODY_FIELDS], `the target accepted a body of ${required.join(', ') || 'nothing'} with wrong-typed values (${answer.status})`);
    if (required.length === 0)
      return guessed([...BODY_FIELDS], `an empty body answered ${answer.status}${named ? ` naming "${named}"` : ''}, not a missing field`);
    const known = BODY_FIELDS.filter((f) => required.includes(f));
    return probed(
      [...known, ...required.filter((f) => !(BODY_FIELDS as readonly string[]).includes(f))],
      `each field named missing with 400 in turn (${required.join(', ')}); with all of them the target answered ${answer.status}`,
    );
  }
  return guessed([...BODY_FIELDS], `the target named a missing field ${MAX_REQUIRED_PROBES} times in a row (${required.join(', ')})`);
}

/** The body field a 400 names: its `param`, or the first segment of its JSON Pointer `path`. */
function fieldNamed(error: ReturnType<typeof errorOf>): string | null {
  if (typeof error?.param === 'string' && error.param !== '') return error.param;
  if (typeof error?.path === 'string' && error.path.startsWith('/')) return error.path.slice(1).split('/')[0] || null;
  return null;
}

async function forbidden(target: ProbeTarget): Promise<Fact> {
  for (const path of FORBIDDEN_CANDIDATES) {
    const answer = await probe(target, 'GET', path);
    if (answer.status === 403 && errorOf(answer)?.type === 'authorization_error')
      return probed({ method: 'GET', path }, `GET ${path} answered 403 authorization_error`);
  }
  return notFound(`none of ${FORBIDDEN_CANDIDATES.join(', ')} answered 403 authorization_error: a request the key may not make`);
}

/** Puts the facts in the shape of a profile (schemas/profile.schema.json). */
export function profileOf(name: string, facts: Facts): Record<string, unknown> {
  const profile: Record<string, unknown> = { name };
  for (const [place, fact] of Object.entries(facts)) {
    const parts = place.split('.');
    let node = profile;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts.at(-1)!] = fact.value;
  }
  return profile;
}
