import type { Broker } from '../broker/broker.js';
import { UNKNOWN_ID, type LedgerEntry } from '../broker/ledger.js';
import { TransportFailure, type HttpClient, type HttpResponse } from '../http/client.js';
import { rateHeaders } from '../pacing/pacer.js';
import { fillPath, type Profile } from '../profile/profile.js';
import { KEY_CREATION_PATH, PROBE_PATH, type KeyDeletion } from './deletion.js';
import { identifySecret } from './identify.js';
import { secretCandidates } from './secret.js';

/** Keys of the main account the run spreads its work over, and what the run says of them. */
export interface KeyPool {
  /** The secrets of the pool's keys, the configured key not included. */
  readonly keys: readonly string[];
  /** One line for the terminal and the report: how many keys, or why none. */
  readonly note: string | null;
}

export interface PoolRequest {
  readonly http: HttpClient;
  readonly broker: Broker;
  readonly profile: Profile;
  readonly keyPrefix: string | null;
  readonly keyDeletion: KeyDeletion;
  readonly runId: string;
  readonly baseUrl: string;
  /** Keys wanted in all, the configured one included (`--max-keys`). */
  readonly size: number;
}

const NONE: KeyPool = { keys: [], note: null };

/**
 * Creates up to `size - 1` keys, named and in the ledger like every key of the run (deleted at
 * its end, or by `cleanup`). Never impolite: a refused creation ends the pool where it is, not
 * the run; a key that does not authenticate is deleted again; and when the keys turn out to share
 * one budget (the target fails RATE-6), the pool is deleted and the run keeps to one key.
 */
export async function createKeyPool(request: PoolRequest): Promise<KeyPool> {
  const { keyDeletion, size } = request;
  if (size <= 1 || !keyDeletion.path || !keyDeletion.idMember || keyDeletion.noKeys) return NONE;
  const made: { id: string; secret: string }[] = [];
  let stoppedBy: string | null = null;
  try {
    for (let n = 1; n < size && stoppedBy === null; n++) {
      const key = await createPoolKey(request, `conformance-${request.runId}-pool-${n}`);
      if ('refused' in key) stoppedBy = key.refused;
      else made.push(key);
    }
    if (made.length === 0) return { keys: [], note: `one key: ${stoppedBy ?? 'no key was created'}` };
    if (await sharedBudget(request, made[0]!.secret)) {
      for (const key of made) await deletePoolKey(request, key.id);
      return {
        keys: [],
        note: "one key: keys of the account share one rate-limit budget (a request of the main key spent a pool key's), so the run keeps to the key it was given",
      };
    }
  } catch (error) {
    // A target that stops answering: the keys made so far are in the ledger, the run's cleanup deletes them.
    if (error instanceof TransportFailure) return { keys: [], note: `one key: creating the pool met ${error.message}` };
    throw error;
  }
  const short = stoppedBy ? ` (${stoppedBy})` : '';
  return {
    keys: made.map((k) => k.secret),
    note: `work spread over ${made.length + 1} keys: the configured one and ${made.length} the run created${short}`,
  };
}

type PoolKey = { id: string; secret: string } | { refused: string };

async function createPoolKey(request: PoolRequest, name: string): Promise<PoolKey> {
  const { http, broker, profile, keyDeletion } = request;
  const entry = (event: LedgerEntry['event'], id: string, note?: string): LedgerEntry => ({
    event,
    kind: 'api_key',
    id,
    name,
    runId: request.runId,
    baseUrl: request.baseUrl,
    at: new Date().toISOString(),
    ...(note ? { note } : {}),
  });
  broker.addLedgerEntry(entry('creating', UNKNOWN_ID));
  const created = await http.post(KEY_CREATION_PATH, { name });
  if (created.status < 200 || created.status >= 300) {
    broker.addLedgerEntry(entry('not_created', UNKNOWN_ID, `answered ${created.status}`));
    return { refused: `creating a key answered ${created.status}` };
  }
  const body = created.json as Record<string, unknown> | undefined;
  const rawId = body?.[keyDeletion.idMember!];
  const id = typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : null;
  const candidates = secretCandidates(body, { member: profile.apiKeyFields.secret, sentName: name, prefix: request.keyPrefix });
  for (const candidate of candidates) broker.addCandidateSecret(candidate);
  broker.addLedgerEntry(entry('created', id ?? UNKNOWN_ID));
  const declared = profile.apiKeyFields.secret !== null;
  const use = await identifySecret(candidates, (key) => http.get(PROBE_PATH, { auth: { key, kind: declared ? 'created' : 'candidate' } }), { declared });
  if (use.secret) broker.addRevealedSecret(use.secret);
  if (id === null) return { refused: 'a created key has no id to delete it by' };
  if (!use.secret || !use.accepted) {
    await deletePoolKey(request, id);
    return { refused: 'a created key did not authenticate' };
  }
  return { id, secret: use.secret };
}

async function deletePoolKey(request: PoolRequest, id: string): Promise<void> {
  const deleted = await request.http.delete(fillPath(request.keyDeletion.path!, id));
  if ((deleted.status >= 200 && deleted.status < 300) || deleted.status === 404) {
    request.broker.addLedgerEntry({ event: 'deleted', kind: 'api_key', id, runId: request.runId, baseUrl: request.baseUrl, at: new Date().toISOString() });
  }
}

/**
 * Whether a request with the main key spent the pool key's budget: the pool key's
 * X-RateLimit-Remaining, read before and after one request of the main key and one of its own,
 * fell by two. Without the headers nothing is known, and the pacer counts each key's requests.
 */
async function sharedBudget(request: PoolRequest, poolKey: string): Promise<boolean> {
  const { http } = request;
  const remaining = (res: HttpResponse) => rateHeaders(res.headers).remaining;
  const before = remaining(await http.get(PROBE_PATH, { auth: { key: poolKey, kind: 'created' } }));
  await http.get(PROBE_PATH);
  const after = remaining(await http.get(PROBE_PATH, { auth: { key: poolKey, kind: 'created' } }));
  return before !== null && after !== null && before - after >= 2;
}
