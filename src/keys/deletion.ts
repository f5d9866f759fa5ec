import { TransportFailure } from '../http/client.js';
import { fillPath, type Profile } from '../profile/profile.js';
import { KEY_CREATION_PATH, PROBE_PATH } from './paths.js';
import { ledgerEntry } from '../broker/ledger.js';
import { adoptKey, postKey, type RunKeyPort } from './run-key.js';
import { runKeyName } from './run-key-name.js';

export { CONVENTIONAL_KEY_PATH, KEY_CREATION_PATH, PROBE_PATH } from './paths.js';

/** The id member most deployments name a key's id by, tried when the profile declares none. */
const CONVENTIONAL_ID_MEMBER = 'id';

/**
 * How the run deletes the keys it creates. A run never leaves a live credential behind by
 * default: without a way to delete keys it creates none (`noKeys` says why), unless
 * `--leave-keys` allows it.
 */
export interface KeyDeletion {
  /** The key path with `{id}`; null when keys cannot be deleted. */
  readonly path: string | null;
  /** The creation response's member holding the key's id. */
  readonly idMember: string | null;
  readonly source: 'declared' | 'conventional' | null;
  /** Why the run creates no key; null when it may. Phrased as a missing declared fact. */
  readonly noKeys: string | null;
  /** `--leave-keys`: keys that cannot be deleted are created anyway and named in the report. */
  readonly leaveKeys: boolean;
}

/** The profile's own answer, when it declares the key path and id member. */
export function declaredDeletion(profile: Profile, leaveKeys: boolean): KeyDeletion | null {
  const { apiKey } = profile.paths;
  const { id } = profile.apiKeyFields;
  return apiKey && id ? { path: apiKey, idMember: id, source: 'declared', noKeys: null, leaveKeys } : null;
}

export type DeletionProbe = RunKeyPort;

const NOT_DECLARED = 'not declared: the key path (paths.apiKey) and key id member (apiKeyFields.id)';
const OPT_IN = 'the run creates no key it cannot delete (--leave-keys allows it)';

/**
 * With no key path declared: creates one key and finds where it is deleted, from what the API
 * says (the creation response's links, then paths derived from the key list, `deletionCandidates`),
 * each tried on the probe key until one revokes it (a 2xx, and the key then answers 401). Used from
 * then on when one did; otherwise the run creates no further key. The probe key is in the ledger
 * like any other, so a key it could not delete is reported.
 */
export async function probeConventionalDeletion(probe: DeletionProbe): Promise<KeyDeletion> {
  try {
    return await tryConventionalDeletion(probe);
  } catch (error) {
    // A target that stops answering: no key path is known, so no further key is made.
    if (error instanceof TransportFailure) return refuse(`the deletion probe met ${error.message}`);
    throw error;
  }
}

function refuse(why: string): KeyDeletion {
  return { path: null, idMember: null, source: null, noKeys: `${NOT_DECLARED}, and ${why}: ${OPT_IN}`, leaveKeys: false };
}

async function tryConventionalDeletion(probe: DeletionProbe): Promise<KeyDeletion> {
  const { http, broker, profile } = probe;
  const name = runKeyName(probe.runId, 'deletion-probe');
  const res = await postKey(probe, name);
  const body = (res.json ?? null) as Record<string, unknown> | null;
  // The id member: the declared one, or the first id-like member of the creation response.
  const idMember = profile.apiKeyFields.id ?? idMemberOf(body) ?? CONVENTIONAL_ID_MEMBER;
  const made = await adoptKey(probe, res, { name, idMember });
  // Creation itself is KEY-1's to judge: the checks try it, and nothing was left here.
  if (made === null) return { path: null, idMember: null, source: null, noKeys: null, leaveKeys: false };
  const { id, use } = made;
  if (id === null) return refuse(`the creation response has no "${idMember}" member to delete the key by`);
  const tried: string[] = [];
  const known = { keyPath: profile.paths.apiKey, keyList: profile.paths.apiKeyList };
  for (const template of deletionCandidates(known, probe.baseUrl, res.headers['location'], body, id)) {
    const deleted = await http.delete(fillPath(template, id));
    tried.push(`${template} (${deleted.status})`);
    if (deleted.status < 200 || deleted.status >= 300) continue;
    if (use.secret) {
      const after = await http.get(PROBE_PATH, { auth: { key: use.secret, kind: 'invalid' } });
      // A 2xx that did not revoke the key is not the key path: the next candidate is tried.
      if (after.status !== 401) {
        tried[tried.length - 1] = `${template} (${deleted.status}, and the key still answered ${after.status})`;
        continue;
      }
    }
    broker.addLedgerEntry(ledgerEntry(probe, { event: 'deleted', id, name: made.name }));
    return { path: template, idMember, source: 'conventional', noKeys: null, leaveKeys: false };
  }
  return refuse(`[DELETE] revoked the probe key at none of ${tried.join(', ')}`);
}

/** Members that name a resource's id in most APIs, tried in this order when the profile declares none. */
const ID_MEMBERS = ['id', 'key_id', 'api_key_id', 'keyId', 'apiKeyId', 'uuid'];

/** The creation response's id member: a conventional name, else a member named like an id (`…_id`, `…Id`). */
export function idMemberOf(body: Record<string, unknown> | null): string | null {
  if (!body || typeof body !== 'object') return null;
  const usable = (m: string) => typeof body[m] === 'string' || typeof body[m] === 'number';
  return ID_MEMBERS.find(usable) ?? Object.keys(body).find((m) => /(_id|Id)$/.test(m) && usable(m)) ?? null;
}

/**
 * Where the probe key may be deleted, best first, as templates with `{id}`: a key path declared
 * without its id member; what the creation response points at (a `Location` header, a `url`,
 * `href`, `self` or `_links.self.href` member holding the id); then paths derived from the key
 * list (declared, or where the document creates keys) and its singular and plural forms.
 */
export function deletionCandidates(
  known: { readonly keyPath: string | null; readonly keyList: string | null },
  baseUrl: string,
  location: string | null | undefined,
  body: Record<string, unknown> | null,
  id: string,
): string[] {
  const out: string[] = [];
  const add = (template: string | null | undefined) => {
    if (template && template.startsWith('/api/v1/') && template.includes('{id}') && !out.includes(template)) out.push(template);
  };
  add(known.keyPath);
  const links = body?._links as { self?: { href?: unknown } } | undefined;
  const pointers = [location, body?.url, body?.href, body?.self, links?.self?.href, (body?.links as { self?: unknown } | undefined)?.self];
  for (const pointer of pointers) add(templateOf(pointer, baseUrl, id));
  for (const list of [known.keyList, KEY_CREATION_PATH]) {
    if (!list) continue;
    for (const form of collectionForms(list)) add(`${form}/{id}`);
  }
  return out;
}

/** A link to the key as a template: its path on the target with the id replaced by `{id}`. */
function templateOf(pointer: unknown, baseUrl: string, id: string): string | null {
  if (typeof pointer !== 'string') return null;
  let path: string;
  try {
    const url = new URL(pointer, baseUrl);
    if (url.origin !== new URL(baseUrl).origin) return null;
    path = url.pathname;
  } catch {
    return null;
  }
  const encoded = encodeURIComponent(id);
  const at = path.lastIndexOf(encoded);
  return at < 0 ? null : `${path.slice(0, at)}{id}${path.slice(at + encoded.length)}`;
}

/**
 * A collection path and its kin: the plural and singular of its last segment (`api_keys`,
 * `api_key`), and of its last word (`keys`, `key`), also as one word or with a dash.
 */
export function collectionForms(list: string): string[] {
  const cut = list.lastIndexOf('/');
  const parent = list.slice(0, cut);
  const last = list.slice(cut + 1);
  const words = last.split(/[_-]/);
  const tail = words[words.length - 1]!;
  const segments = [
    last,
    singular(last),
    ...(words.length > 1 ? [tail, singular(tail), words.join(''), singular(words.join('')), words.join('-'), singular(words.join('-'))] : []),
  ];
  const plural = (w: string) => (w.endsWith('s') ? w : `${w}s`);
  return [...new Set(segments.flatMap((w) => [w, plural(w)]))].map((w) => `${parent}/${w}`);
}

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  return word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}
