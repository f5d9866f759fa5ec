import { ledgerEntry, UNKNOWN_ID, type LedgerEntry } from '../broker/ledger.js';
import type { HttpClient, HttpResponse } from '../http/client.js';
import type { Profile } from '../profile/profile.js';
import { KEY_CREATION_PATH, PROBE_PATH } from './paths.js';
import { identifySecret, type FirstUse } from './identify.js';
import { secretCandidates } from './secret.js';

/**
 * Where a created key is recorded: the run's broker in the main process (answers at once), or its
 * link from a worker (answers later). Both are awaited.
 */
export interface KeyRecords {
  addLedgerEntry(entry: LedgerEntry): void | Promise<void>;
  addCandidateSecret(value: string): void | Promise<void>;
  addRevealedSecret(value: string): void | Promise<void>;
  /** Resolves once the key that deletes the run's keys can still delete every live one, the one announced included. */
  untilDeletable(): Promise<void>;
}

/** What creating a key of the run needs: the main process's (deletion probe, pool) or a check's. */
export interface RunKeyPort {
  readonly http: HttpClient;
  readonly broker: KeyRecords;
  readonly profile: Profile;
  readonly keyPrefix: string | null;
  readonly runId: string;
  readonly baseUrl: string;
}

/** A key the run created: its name, its id where found, its secret where one authenticated, its first uses. */
export interface AdoptedKey {
  readonly name: string;
  readonly id: string | null;
  readonly secret: string | null;
  readonly use: FirstUse;
}

/**
 * Asks for a key named `name` (POST /api/v1/api_keys, where the document puts creation),
 * announced in the ledger first: a run killed before the answer is recorded still lets `cleanup`
 * find it. A refusal is recorded. Nothing else: the caller adopts the response.
 */
export async function postKey(port: RunKeyPort, name: string, as?: { readonly key: string; readonly kind: 'created' }): Promise<HttpResponse> {
  await port.broker.addLedgerEntry(ledgerEntry(port, { event: 'creating', id: UNKNOWN_ID, name }));
  await port.broker.untilDeletable();
  const res = await port.http.post(KEY_CREATION_PATH, { name }, as ? { auth: as } : {});
  if (res.status < 200 || res.status >= 300)
    await port.broker.addLedgerEntry(ledgerEntry(port, { event: 'not_created', id: UNKNOWN_ID, name, note: `answered ${res.status}` }));
  return res;
}

/**
 * Takes charge of whatever a creation request created, also one that should have been refused
 * (no name, no key): candidates for the key are redacted at once, the key goes in the ledger
 * before it is used (a target that stops answering now still gets it deleted), and the candidate
 * that authenticates becomes a secret looked for in every later response (KEY-4). Returns null
 * when the response created nothing.
 */
export async function adoptKey(
  port: RunKeyPort,
  res: HttpResponse,
  options: {
    readonly name: string | null;
    readonly idMember: string | null;
    readonly withinMs?: number;
    /**
     * The key's first use, by which its secret is found: a request with the candidate. A check of a
     * key used only to write makes it a write. @default GET on the probe path
     */
    readonly use?: (auth: { readonly key: string; readonly kind: 'created' | 'candidate' }) => Promise<HttpResponse>;
  },
): Promise<AdoptedKey | null> {
  if (res.status < 200 || res.status >= 300) return null;
  const { http, broker, profile } = port;
  const body = res.json as Record<string, unknown> | null | undefined;
  const member = profile.apiKeyFields.secret;
  const candidates = secretCandidates(body, { member, sentName: options.name, prefix: port.keyPrefix });
  for (const candidate of candidates) await broker.addCandidateSecret(candidate);
  const rawId = options.idMember ? body?.[options.idMember] : undefined;
  const id = typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : null;
  const nameField = profile.apiKeyFields.name;
  const name = options.name ?? (nameField && typeof body?.[nameField] === 'string' ? (body[nameField] as string) : null);
  await broker.addLedgerEntry(ledgerEntry(port, { event: 'created', id: id ?? UNKNOWN_ID, name }));
  const kind = member ? 'created' : 'candidate';
  const firstUse = options.use ?? ((auth) => http.get(PROBE_PATH, { auth }));
  const use = await identifySecret(candidates, (key) => firstUse({ key, kind }), {
    declared: member !== null,
    ...(options.withinMs !== undefined ? { withinMs: options.withinMs } : {}),
  });
  if (use.secret) await broker.addRevealedSecret(use.secret);
  return { name: name ?? '', id, secret: use.secret, use };
}

/** A key the main process created (the deletion probe, the pool), or the status that refused it. */
export type RunKey = { readonly refused: number } | AdoptedKey;

/** Creates and adopts a key named `name` outside any check. */
export async function createRunKey(port: RunKeyPort, name: string, idMember: string): Promise<RunKey> {
  const res = await postKey(port, name);
  return (await adoptKey(port, res, { name, idMember })) ?? { refused: res.status };
}
