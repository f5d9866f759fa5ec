import { TransportFailure } from '../http/client.js';
import { rateHeaders } from '../http/rate-headers.js';
import { fillPath } from '../profile/profile.js';
import type { KeyDeletion } from './deletion.js';
import { PROBE_PATH } from './paths.js';
import { ledgerEntry } from '../broker/ledger.js';
import { createRunKey, type RunKeyPort } from './run-key.js';
import { runKeyName } from './run-key-name.js';

/** Keys of the main account the run spreads its work over, and what the run says of them. */
export interface KeyPool {
  /** The secrets of the pool's keys, the configured key not included. */
  readonly keys: readonly string[];
  /** One line for the terminal and the report: how many keys, or why none. */
  readonly note: string | null;
}

export interface PoolRequest extends RunKeyPort {
  readonly keyDeletion: KeyDeletion;
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
  const made: { id: string; name: string; secret: string }[] = [];
  let stoppedBy: string | null = null;
  try {
    for (let n = 1; n < size && stoppedBy === null; n++) {
      const key = await createPoolKey(request, runKeyName(request.runId, `pool-${n}`));
      if ('refused' in key) stoppedBy = key.refused;
      else made.push(key);
    }
    if (made.length === 0) return { keys: [], note: `one key: ${stoppedBy ?? 'no key was created'}` };
    if (await sharedBudget(request, made[0]!.secret)) {
      for (const key of made) await deletePoolKey(request, key);
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

type PoolKey = { id: string; name: string; secret: string } | { refused: string };

async function createPoolKey(request: PoolRequest, name: string): Promise<PoolKey> {
  const made = await createRunKey(request, name, request.keyDeletion.idMember!);
  if ('refused' in made) return { refused: `creating a key answered ${made.refused}` };
  if (made.id === null) return { refused: 'a created key has no id to delete it by' };
  if (!made.secret || !made.use.accepted) {
    await deletePoolKey(request, { id: made.id, name });
    return { refused: 'a created key did not authenticate' };
  }
  return { id: made.id, name, secret: made.secret };
}

async function deletePoolKey(request: PoolRequest, { id, name }: { id: string; name: string }): Promise<void> {
  const deleted = await request.http.delete(fillPath(request.keyDeletion.path!, id));
  if ((deleted.status >= 200 && deleted.status < 300) || deleted.status === 404) {
    request.broker.addLedgerEntry(ledgerEntry(request, { event: 'deleted', id, name }));
  }
}

/** Measurements `sharedBudget` makes at most, when a window rolls on between two readings. */
const BUDGET_PROBES = 3;

/**
 * Whether a request with the main key spent the pool key's budget: the pool key's
 * X-RateLimit-Remaining, read before and after one request of the main key and one of its own,
 * fell by two. A reading across a window's end proves nothing (the budget refilled in between:
 * Remaining did not fall, or the Reset moved), so it is made again, a few times at most. Without
 * the headers nothing is known, and the pacer counts each key's requests.
 */
export async function sharedBudget(request: Pick<PoolRequest, 'http'>, poolKey: string): Promise<boolean> {
  const { http } = request;
  const read = async () => rateHeaders((await http.get(PROBE_PATH, { auth: { key: poolKey, kind: 'created' } })).headers);
  let fell = 0;
  for (let probe = 0; probe < BUDGET_PROBES; probe++) {
    const before = await read();
    await http.get(PROBE_PATH);
    const after = await read();
    if (before.remaining === null || after.remaining === null) return false;
    fell = before.remaining - after.remaining;
    const rolled = fell <= 0 || (before.reset !== null && after.reset !== null && before.reset !== after.reset);
    if (!rolled) break;
  }
  return fell >= 2;
}
