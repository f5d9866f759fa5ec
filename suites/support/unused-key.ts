import { UNKNOWN_ID } from '../../src/broker/ledger.js';
import type { CheckContext } from '../../src/check/context.js';
import type { HttpResponse } from '../../src/http/client.js';

// A key the run creates and looks at before anything uses it (KEY-3: a key never used is
// listed with its last-use member too). `createKey` uses every key it makes at once, to find its
// secret (KEY-1); here the creation is posted alone, and the caller hands the response to
// `adoptCreatedKey` once it has looked, which registers the candidates, records the key and uses it.

/**
 * Posts `{name}` to the creation path the way `createKey` does (announced in the ledger first, a
 * refusal recorded), without using the key. The caller must adopt the response, whatever happens
 * in between: until then the new secret is neither redacted nor deleted at the end.
 */
export async function postUnusedKey(t: CheckContext, creationPath: string, name: string): Promise<HttpResponse> {
  const { noKeys } = t.run.keyDeletion;
  if (noKeys) t.notApplicable(noKeys);
  const entry = { kind: 'api_key', id: UNKNOWN_ID, name, runId: t.run.runId, baseUrl: t.run.baseUrl } as const;
  await t.runtime.broker.addLedgerEntry({ ...entry, event: 'creating', at: new Date().toISOString() });
  const res = await t.http.post(creationPath, { name });
  if (res.status < 200 || res.status >= 300) {
    await t.runtime.broker.addLedgerEntry({ ...entry, event: 'not_created', at: new Date().toISOString(), note: `answered ${res.status}` });
  }
  return res;
}
