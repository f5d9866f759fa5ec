import type { Broker } from '../broker/broker.js';
import { UNKNOWN_ID, type LedgerEntry } from '../broker/ledger.js';
import { TransportFailure, type HttpClient } from '../http/client.js';
import { fillPath, type Profile } from '../profile/profile.js';
import { identifySecret } from './identify.js';
import { secretCandidates } from './secret.js';

/** Where the document puts key creation, whatever the profile says (the run interface). */
export const KEY_CREATION_PATH = '/api/v1/api_keys';

/** A request any key of the account may make: the document's first list. */
export const PROBE_PATH = '/api/v1/workspaces';

/** The path and id member most deployments use to delete a key, tried when the profile declares none. */
export const CONVENTIONAL_KEY_PATH = '/api/v1/api_keys/{id}';
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

export interface DeletionProbe {
  readonly http: HttpClient;
  readonly broker: Broker;
  readonly profile: Profile;
  readonly keyPrefix: string | null;
  readonly runId: string;
  readonly baseUrl: string;
}

const NOT_DECLARED = 'not declared: the key path (paths.apiKey) and key id member (apiKeyFields.id)';
const OPT_IN = 'the run creates no key it cannot delete (--leave-keys allows it)';

/**
 * With no key path declared: creates one key, deletes it at the conventional path and checks that
 * it then stops working. Used from then on when it did; otherwise the run creates no further key.
 * The probe key is in the ledger like any other, so a key it could not delete is reported.
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
  const { http, broker, profile, runId, baseUrl } = probe;
  const name = `conformance-${runId}-deletion-probe`;
  const entry = (event: LedgerEntry['event'], id: string, note?: string): LedgerEntry => ({
    event,
    kind: 'api_key',
    id,
    name,
    runId,
    baseUrl,
    at: new Date().toISOString(),
    ...(note ? { note } : {}),
  });
  broker.addLedgerEntry(entry('creating', UNKNOWN_ID));
  const created = await http.post(KEY_CREATION_PATH, { name });
  if (created.status < 200 || created.status >= 300) {
    broker.addLedgerEntry(entry('not_created', UNKNOWN_ID, `answered ${created.status}`));
    // Creation itself is KEY-1's to judge: the checks try it, and nothing was left here.
    return { path: null, idMember: null, source: null, noKeys: null, leaveKeys: false };
  }
  const body = created.json as Record<string, unknown> | undefined;
  const idMember = profile.apiKeyFields.id ?? CONVENTIONAL_ID_MEMBER;
  const rawId = body?.[idMember];
  const id = typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : null;
  const declared = profile.apiKeyFields.secret !== null;
  const candidates = secretCandidates(body, { member: profile.apiKeyFields.secret, sentName: name, prefix: probe.keyPrefix });
  for (const candidate of candidates) broker.addCandidateSecret(candidate);
  broker.addLedgerEntry(entry('created', id ?? UNKNOWN_ID));
  const use = await identifySecret(candidates, (key) => http.get(PROBE_PATH, { auth: { key, kind: declared ? 'created' : 'candidate' } }), { declared });
  if (use.secret) broker.addRevealedSecret(use.secret);
  if (id === null) return refuse(`the creation response has no "${idMember}" member to delete the key by`);
  // A key path declared without its id member is tried as declared; otherwise the conventional one.
  const template = profile.paths.apiKey ?? CONVENTIONAL_KEY_PATH;
  const deleted = await http.delete(fillPath(template, id));
  if (deleted.status < 200 || deleted.status >= 300) return refuse(`[DELETE] ${template} answered ${deleted.status}`);
  broker.addLedgerEntry(entry('deleted', id));
  if (use.secret) {
    const after = await http.get(PROBE_PATH, { auth: { key: use.secret, kind: 'invalid' } });
    if (after.status !== 401) return refuse(`the key still answered ${after.status} after [DELETE] ${template} answered ${deleted.status}`);
  }
  return { path: template, idMember, source: 'conventional', noKeys: null, leaveKeys: false };
}
