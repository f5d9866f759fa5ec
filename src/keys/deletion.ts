import { TransportFailure } from '../http/client.js';
import { fillPath, type Profile } from '../profile/profile.js';
import { CONVENTIONAL_KEY_PATH, PROBE_PATH } from './paths.js';
import { ledgerEntry } from '../broker/ledger.js';
import { createRunKey, type RunKeyPort } from './run-key.js';

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
  const { http, broker, profile } = probe;
  const idMember = profile.apiKeyFields.id ?? CONVENTIONAL_ID_MEMBER;
  const made = await createRunKey(probe, `conformance-${probe.runId}-deletion-probe`, idMember);
  // Creation itself is KEY-1's to judge: the checks try it, and nothing was left here.
  if ('refused' in made) return { path: null, idMember: null, source: null, noKeys: null, leaveKeys: false };
  const { id, use } = made;
  if (id === null) return refuse(`the creation response has no "${idMember}" member to delete the key by`);
  // A key path declared without its id member is tried as declared; otherwise the conventional one.
  const template = profile.paths.apiKey ?? CONVENTIONAL_KEY_PATH;
  const deleted = await http.delete(fillPath(template, id));
  if (deleted.status < 200 || deleted.status >= 300) return refuse(`[DELETE] ${template} answered ${deleted.status}`);
  broker.addLedgerEntry(ledgerEntry(probe, { event: 'deleted', id, name: made.name }));
  if (use.secret) {
    const after = await http.get(PROBE_PATH, { auth: { key: use.secret, kind: 'invalid' } });
    if (after.status !== 401) return refuse(`the key still answered ${after.status} after [DELETE] ${template} answered ${deleted.status}`);
  }
  return { path: template, idMember, source: 'conventional', noKeys: null, leaveKeys: false };
}
