import type { Broker } from '../broker/broker.js';
import { UNKNOWN_ID, type LedgerEntry } from '../broker/ledger.js';
import type { HttpClient } from '../http/client.js';
import type { Profile } from '../profile/profile.js';
import { KEY_CREATION_PATH, PROBE_PATH } from './paths.js';
import { identifySecret, type FirstUse } from './identify.js';
import { secretCandidates } from './secret.js';

/** What the main process needs to create a key of its own (the deletion probe, the pool). */
export interface RunKeyPort {
  readonly http: HttpClient;
  readonly broker: Broker;
  readonly profile: Profile;
  readonly keyPrefix: string | null;
  readonly runId: string;
  readonly baseUrl: string;
}

/** A key the main process created: its id (by `idMember`) and secret where found, and its first uses. */
export type RunKey = { readonly refused: number } | { readonly id: string | null; readonly secret: string | null; readonly use: FirstUse };

/**
 * Creates a key named `name` outside any check: announced in the ledger before the request, its
 * candidates redacted at once, recorded as created before it is used, its secret found by using
 * it and looked for in every later response (KEY-4). A refusal is recorded and answered.
 */
export async function createRunKey(port: RunKeyPort, name: string, idMember: string): Promise<RunKey> {
  const { http, broker, profile } = port;
  const entry = (event: LedgerEntry['event'], id: string, note?: string) => ledgerEntry(port, event, id, name, note);
  broker.addLedgerEntry(entry('creating', UNKNOWN_ID));
  const created = await http.post(KEY_CREATION_PATH, { name });
  if (created.status < 200 || created.status >= 300) {
    broker.addLedgerEntry(entry('not_created', UNKNOWN_ID, `answered ${created.status}`));
    return { refused: created.status };
  }
  const body = created.json as Record<string, unknown> | undefined;
  const rawId = body?.[idMember];
  const id = typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : null;
  const declared = profile.apiKeyFields.secret !== null;
  const candidates = secretCandidates(body, { member: profile.apiKeyFields.secret, sentName: name, prefix: port.keyPrefix });
  for (const candidate of candidates) broker.addCandidateSecret(candidate);
  broker.addLedgerEntry(entry('created', id ?? UNKNOWN_ID));
  const use = await identifySecret(candidates, (key) => http.get(PROBE_PATH, { auth: { key, kind: declared ? 'created' : 'candidate' } }), { declared });
  if (use.secret) broker.addRevealedSecret(use.secret);
  return { id, secret: use.secret, use };
}

/** A ledger line of a key the main process created or deleted. */
export function ledgerEntry(port: Pick<RunKeyPort, 'runId' | 'baseUrl'>, event: LedgerEntry['event'], id: string, name?: string, note?: string): LedgerEntry {
  return {
    event,
    kind: 'api_key',
    id,
    ...(name ? { name } : {}),
    runId: port.runId,
    baseUrl: port.baseUrl,
    at: new Date().toISOString(),
    ...(note ? { note } : {}),
  };
}
