import { UNKNOWN_ID } from '../../src/broker/ledger.js';
import type { CheckContext } from '../../src/check/context.js';
import { Finding } from '../../src/check/outcome.js';
import type { HttpResponse } from '../../src/http/client.js';
import { identifySecret, KEY_PROPAGATION_MS, type FirstUse } from '../../src/keys/identify.js';
import { KEY_CREATION_PATH, PROBE_PATH } from '../../src/keys/deletion.js';
import { secretCandidates } from '../../src/keys/secret.js';
import { fillPath } from '../../src/profile/profile.js';

export { KEY_CREATION_PATH, PROBE_PATH } from '../../src/keys/deletion.js';

/** A key the run created. Its secret is registered with the broker the moment it authenticates. */
export interface CreatedKey {
  readonly name: string;
  /** The key's id, from the member the run deletes keys by; null when there is none. */
  readonly id: string | null;
  /** The complete key: the declared member's value, or the candidate that authenticated; null when none did. */
  readonly secret: string | null;
  readonly response: HttpResponse;
  /** How the key answered its first uses (KEY-1, KEY-2). */
  readonly firstUse: FirstUse;
}

/** A created key whose secret is known. */
export type UsableKey = CreatedKey & { readonly secret: string };

/** A recognisable name, so that a deployment owner (and `cleanup`) can tell run keys apart. */
export function keyName(t: CheckContext, purpose: string): string {
  return `conformance-${t.run.runId}-${purpose}`;
}

/**
 * Creates a key (POST /api/v1/api_keys, where the document puts creation), finds its secret by
 * using it, registers it for redaction and the KEY-4 leak scan, and records the key in the
 * ledger, before anything else is judged. A non-2xx answer or a response with no value that
 * authenticates (or, declared, no value at all) is a finding (KEY-1). Where the run cannot
 * delete keys, it creates none (`KeyDeletion.noKeys`): the check is not applicable.
 */
export async function createKey(t: CheckContext, purpose: string): Promise<UsableKey> {
  const { noKeys } = t.run.keyDeletion;
  if (noKeys) t.notApplicable(noKeys);
  const name = keyName(t, purpose);
  // Announced first: a run killed before the answer is recorded still lets `cleanup` find the key.
  await t.runtime.broker.addLedgerEntry({ event: 'creating', kind: 'api_key', id: UNKNOWN_ID, name, runId: t.run.runId, baseUrl: t.run.baseUrl, at: new Date().toISOString() });
  const res = await t.http.post(KEY_CREATION_PATH, { name });
  if (res.status < 200 || res.status >= 300) {
    await t.runtime.broker.addLedgerEntry({ event: 'not_created', kind: 'api_key', id: UNKNOWN_ID, name, runId: t.run.runId, baseUrl: t.run.baseUrl, at: new Date().toISOString(), note: `answered ${res.status}` });
  }
  const adopted = await adoptCreatedKey(t, res, name);
  t.ensure(res.status >= 200 && res.status < 300, () => `[POST] ${KEY_CREATION_PATH} with a name answered ${res.status}, expected 2xx`, res);
  const member = t.profile.apiKeyFields.secret;
  t.ensure(adopted?.secret, () => (member ? `the creation response contains no key in its "${member}" member` : `the creation response contains no value that authenticated within 10 s (${adopted?.firstUse.last ? `the last try answered ${adopted.firstUse.last.status}` : 'it holds no candidate'})`), res, ...(adopted?.firstUse.last ? [adopted.firstUse.last] : []));
  return adopted as UsableKey;
}

/**
 * Takes charge of whatever a creation request created, also one that should have been refused
 * (no name, no key): candidates for the key are redacted at once, the one that authenticates
 * becomes a secret looked for in every later response, and the key goes in the ledger to be
 * deleted at the end. Returns null when the response created nothing.
 */
export async function adoptCreatedKey(t: CheckContext, res: HttpResponse, name: string | null): Promise<CreatedKey | null> {
  if (res.status < 200 || res.status >= 300) return null;
  const body = res.json as Record<string, unknown> | null | undefined;
  const member = t.profile.apiKeyFields.secret;
  const candidates = secretCandidates(body, { member, sentName: name, prefix: t.run.keyPrefix });
  for (const candidate of candidates) await t.runtime.broker.addCandidateSecret(candidate);
  const idMember = t.run.keyDeletion.idMember ?? t.profile.apiKeyFields.id;
  const rawId = idMember ? body?.[idMember] : undefined;
  const id = typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : null;
  const nameField = t.profile.apiKeyFields.name;
  const recorded = name ?? (nameField && typeof body?.[nameField] === 'string' ? (body[nameField] as string) : null);
  await t.runtime.broker.addLedgerEntry({
    event: 'created',
    kind: 'api_key',
    id: id ?? UNKNOWN_ID,
    ...(recorded !== null ? { name: recorded } : {}),
    runId: t.run.runId,
    baseUrl: t.run.baseUrl,
    at: new Date().toISOString(),
  });
  // In the ledger before it is used: a target that stops answering now still gets it deleted.
  const kind = member ? 'created' : 'candidate';
  // Once a new key has failed to authenticate in 10 s, later keys of the run are tried once.
  const firstUse = await identifySecret(candidates, (key) => t.http.get(PROBE_PATH, { auth: { key, kind } }), { declared: member !== null, withinMs: freshKeysFail ? 0 : KEY_PROPAGATION_MS });
  freshKeysFail = firstUse.accepted === null;
  if (firstUse.secret) await t.revealSecret(firstUse.secret);
  return { name: recorded ?? '', id, secret: firstUse.secret, response: res, firstUse };
}

/** Deletes a created key at the run's key path; records the deletion (2xx, or 404: already gone). */
export async function deleteKey(t: CheckContext, key: CreatedKey): Promise<HttpResponse> {
  const template = t.run.keyDeletion.path;
  if (!template || !key.id) t.notApplicable('not declared: the key path (paths.apiKey) and key id member (apiKeyFields.id): created keys cannot be deleted');
  const res = await t.http.delete(fillPath(template!, key.id!));
  if ((res.status >= 200 && res.status < 300) || res.status === 404) await recordDeletion(t, key, res.status === 404 ? 'already gone: 404' : undefined);
  return res;
}

/** Deletes a key at the end of a check, whatever the check found; the run's cleanup retries it. */
export async function discardKey(t: CheckContext, key: CreatedKey | null): Promise<void> {
  if (!key || !t.run.keyDeletion.path || !key.id) return;
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
  await t.runtime.broker.addLedgerEntry({
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
export function asCreated(key: UsableKey) {
  return { key: key.secret, kind: 'created' as const };
}

/** Whether an earlier key of the run failed to authenticate within the allowance. */
let freshKeysFail = false;

/** A key for a check whose subject is not creation itself: a failed creation skips (KEY-1 judges it). */
export async function keyForCheck(t: CheckContext, purpose: string): Promise<UsableKey> {
  let key: UsableKey;
  try {
    key = await createKey(t, purpose);
  } catch (error) {
    if (!(error instanceof Finding)) throw error;
    t.skip(`no usable key could be created (${error.reason}): KEY-1 judges creation`);
  }
  if (!key.firstUse.accepted) {
    await discardKey(t, key);
    t.skip(`the new key never authenticated (last answer ${key.firstUse.last?.status ?? 'none'}): KEY-1 judges that`);
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
