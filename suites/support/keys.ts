import { UNKNOWN_ID } from '../../src/broker/ledger.js';
import type { CheckContext } from '../../src/check/context.js';
import { Finding } from '../../src/check/outcome.js';
import type { HttpResponse } from '../../src/http/client.js';
import { fillPath } from '../../src/profile/profile.js';

/** Where the document puts key creation, whatever the profile says (profile.md). */
export const KEY_CREATION_PATH = '/api/v1/api_keys';

/** A key the run created. Its secret is registered with the broker the moment it is seen. */
export interface CreatedKey {
  readonly name: string;
  /** The key's id where the profile names the id member; null otherwise. */
  readonly id: string | null;
  readonly secret: string;
  readonly response: HttpResponse;
}

/** A recognisable name, so that a deployment owner (and `cleanup`) can tell run keys apart. */
export function keyName(t: CheckContext, purpose: string): string {
  return `conformance-${t.run.runId}-${purpose}`;
}

/**
 * Creates a key (POST /api/v1/api_keys, where the document puts creation), registers its secret
 * for redaction and the KEY-4 leak scan, and records it in the ledger, before anything else is
 * judged. A non-2xx answer or a response without a recognisable secret is a finding (KEY-1).
 */
export async function createKey(t: CheckContext, purpose: string): Promise<CreatedKey> {
  const name = keyName(t, purpose);
  // Announced first: a run killed before the answer is recorded still lets `cleanup` find the key.
  await t.runtime.broker.ledger({ event: 'creating', kind: 'api_key', id: UNKNOWN_ID, name, runId: t.run.runId, baseUrl: t.run.baseUrl, at: new Date().toISOString() });
  const res = await t.http.post(KEY_CREATION_PATH, { name });
  if (res.status < 200 || res.status >= 300) {
    await t.runtime.broker.ledger({ event: 'not_created', kind: 'api_key', id: UNKNOWN_ID, name, runId: t.run.runId, baseUrl: t.run.baseUrl, at: new Date().toISOString(), note: `answered ${res.status}` });
  }
  const adopted = await adoptCreatedKey(t, res, name);
  t.ensure(res.status >= 200 && res.status < 300, () => `[POST] ${KEY_CREATION_PATH} with a name answered ${res.status}, expected 2xx`, res);
  t.ensure(adopted?.secret, `the creation response contains no key${t.profile.apiKeyFields.secret ? ` in its "${t.profile.apiKeyFields.secret}" member` : ''}`, res);
  return adopted!;
}

/**
 * Takes charge of whatever a creation request created, also one that should have been refused
 * (no name, no key): the secret is revealed to the broker at once and the key goes in the ledger,
 * so that it is redacted everywhere, looked for in every later response and deleted at the end.
 * Returns null when the response created nothing.
 */
export async function adoptCreatedKey(t: CheckContext, res: HttpResponse, name: string | null): Promise<CreatedKey | null> {
  if (res.status < 200 || res.status >= 300) return null;
  const body = res.json as Record<string, unknown> | null | undefined;
  const secret = findSecret(t, body);
  if (secret) await t.revealSecret(secret);
  const idField = t.profile.apiKeyFields.id;
  const id = idField && typeof body?.[idField] === 'string' ? (body[idField] as string) : null;
  const nameField = t.profile.apiKeyFields.name;
  const recorded = name ?? (nameField && typeof body?.[nameField] === 'string' ? (body[nameField] as string) : null);
  await t.runtime.broker.ledger({
    event: 'created',
    kind: 'api_key',
    id: id ?? UNKNOWN_ID,
    ...(recorded !== null ? { name: recorded } : {}),
    runId: t.run.runId,
    baseUrl: t.run.baseUrl,
    at: new Date().toISOString(),
  });
  return secret ? { name: recorded ?? '', id, secret, response: res } : null;
}

/** Deletes a created key through the profile's key path; records the deletion (2xx, or 404: already gone). */
export async function deleteKey(t: CheckContext, key: CreatedKey): Promise<HttpResponse> {
  const template = t.profile.paths.apiKey;
  if (!template || !key.id) t.notApplicable('the profile declares no key path or key id member: created keys cannot be deleted');
  const res = await t.http.delete(fillPath(template!, key.id!));
  if ((res.status >= 200 && res.status < 300) || res.status === 404) await recordDeletion(t, key, res.status === 404 ? 'already gone: 404' : undefined);
  return res;
}

/** Deletes a key at the end of a check, whatever the check found; the run's cleanup retries it. */
export async function discardKey(t: CheckContext, key: CreatedKey | null): Promise<void> {
  if (!key || !t.profile.paths.apiKey || !key.id) return;
  try {
    await deleteKey(t, key);
  } catch {
    // The ledger still lists it: the end-of-run cleanup deletes it.
  }
}

/** Ids whose deletion this worker recorded: a deliberate second deletion is not recorded again. */
const recordedDeletions = new Set<string>();

async function recordDeletion(t: CheckContext, key: CreatedKey, note?: string): Promise<void> {
  if (recordedDeletions.has(key.id!)) return;
  recordedDeletions.add(key.id!);
  await t.runtime.broker.ledger({
    event: 'deleted',
    kind: 'api_key',
    id: key.id!,
    ...(key.name ? { name: key.name } : {}),
    runId: t.run.runId,
    baseUrl: t.run.baseUrl,
    at: new Date().toISOString(),
    ...(note ? { note } : {}),
  });
}

/** The Authorization credential of a created key. */
export function asCreated(key: CreatedKey) {
  return { key: key.secret, kind: 'created' as const };
}

/**
 * The complete key in a creation response: the profile's secret member when declared, else the
 * one string that starts with the key prefix, else the longest string value.
 */
function findSecret(t: CheckContext, body: Record<string, unknown> | null | undefined): string | null {
  if (!body || typeof body !== 'object') return null;
  const member = t.profile.apiKeyFields.secret;
  if (member) return typeof body[member] === 'string' && body[member] !== '' ? (body[member] as string) : null;
  const strings = Object.values(body).filter((v): v is string => typeof v === 'string');
  const prefix = t.profile.keyPrefix;
  const prefixed = prefix ? strings.filter((s) => s.startsWith(prefix)) : [];
  if (prefixed.length > 0) return prefixed[0]!;
  return strings.sort((a, b) => b.length - a.length)[0] ?? null;
}

/** What using a fresh key showed: the first answer, and the one that authenticated (if any). */
export interface FirstUse {
  readonly first: HttpResponse;
  /** The first answer that was not 401; null when the key never authenticated in time. */
  readonly accepted: HttpResponse | null;
  readonly last: HttpResponse;
}

/** A request any key of the account may make: the document's first list. */
export const PROBE_PATH = '/api/v1/workspaces';

/**
 * Uses a new key until it authenticates, for up to `withinMs` (KEY-1 allows 10 s for a key to
 * take effect); 401 is retried once a second, any other answer ends the wait.
 */
export async function useUntilAccepted(t: CheckContext, key: CreatedKey, withinMs = 10_000): Promise<FirstUse> {
  const deadline = Date.now() + withinMs;
  const first = await t.http.get(PROBE_PATH, { auth: asCreated(key) });
  let last = first;
  while (last.status === 401 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    last = await t.http.get(PROBE_PATH, { auth: asCreated(key) });
  }
  return { first, accepted: last.status === 401 ? null : last, last };
}

let freshKeysFail = false;

/** A key for a check whose subject is not creation itself: a failed creation skips (KEY-1 judges it). */
export async function keyForCheck(t: CheckContext, purpose: string): Promise<CreatedKey> {
  let key: CreatedKey;
  try {
    key = await createKey(t, purpose);
  } catch (error) {
    if (!(error instanceof Finding)) throw error;
    t.skip(`no key could be created (${error.reason}): KEY-1 judges creation`);
  }
  // Once a new key has failed to authenticate in 10 s, later checks of the file ask only once.
  const use = await useUntilAccepted(t, key, freshKeysFail ? 0 : 10_000);
  freshKeysFail = use.accepted === null;
  if (!use.accepted) {
    await discardKey(t, key);
    t.skip(`the new key never authenticated (last answer ${use.last.status}): KEY-1 judges that`);
  }
  return key;
}

/** One page of the key list as the check saw it. */
export interface KeyListPage {
  readonly res: HttpResponse;
  readonly items: readonly Record<string, unknown>[];
}

/** Reads the key list page by page (the profile's list path) until has_more is false. */
export async function readKeyList(t: CheckContext, maxPages = 20): Promise<KeyListPage[]> {
  const path = t.profile.paths.apiKeyList;
  if (!path) t.notApplicable('the profile declares no key list path');
  const pages: KeyListPage[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const res = await t.http.get(path!, { query: { page, limit: 100 } });
    t.ensure(res.status === 200, () => `the key list answered ${res.status}, expected 200`, res);
    const body = t.json(res) as { items?: unknown; has_more?: unknown };
    t.ensure(Array.isArray(body?.items), 'the key list response has no items array', res);
    pages.push({ res, items: body.items as Record<string, unknown>[] });
    if (body.has_more !== true) break;
  }
  return pages;
}

/** The list item of a key, found by its name (and id where the profile names the id member). */
export function findListed(t: CheckContext, pages: readonly KeyListPage[], key: CreatedKey): { item: Record<string, unknown>; res: HttpResponse } | null {
  const { name: nameField, id: idField } = t.profile.apiKeyFields;
  for (const { res, items } of pages) {
    for (const item of items) {
      const byId = idField && key.id !== null && item?.[idField] === key.id;
      const byName = nameField && item?.[nameField] === key.name;
      if (byId || byName) return { item, res };
    }
  }
  return null;
}
