import type { ReferenceApp } from '../../reference/server.js';
import type { Account, ApiKeyRecord } from '../../reference/store.js';

/** The kinds of resource the reference gives an identifier. */
export type IdKind = 'workspace' | 'governance_model' | 'taxonomy' | 'field' | 'picklist' | 'record' | 'submission' | 'api_key';

/**
 * An identifier scheme: the id of the `sequence`-th resource of a kind (1-based, counted over the
 * whole deployment, as a database sequence counts), drawn at the source. `account` keeps seeded
 * ids of different accounts apart where a scheme hashes.
 */
export type IdScheme = (kind: IdKind, sequence: number, account: string) => string;

/**
 * Gives every resource of the reference an id of `scheme` at its source, before the server
 * listens: the seeded workspaces, governance models, taxonomies, fields and picklists (references
 * between them included), the records of each account (computed on demand, as the reference
 * computes them), and the submissions and keys made while the server runs. Lists, retrievals and
 * references then all carry the same ids: nothing is rewritten on the way out.
 */
export function useIdScheme({ state }: ReferenceApp, scheme: IdScheme): void {
  const { store } = state;
  const counters = new Map<IdKind, number>();
  const next = (kind: IdKind, account: string) => {
    const sequence = (counters.get(kind) ?? 0) + 1;
    counters.set(kind, sequence);
    return scheme(kind, sequence, account);
  };

  for (const account of store.accounts) {
    const data = account.data;
    const renamed = new Map<string, string>();
    const rename = <T extends { id: string }>(items: T[], kind: IdKind) => {
      for (const item of items) {
        const id = next(kind, account.id);
        renamed.set(item.id, id);
        item.id = id;
      }
    };
    rename(data.workspaces, 'workspace');
    rename(data.governanceModels, 'governance_model');
    rename(data.picklists, 'picklist');
    rename(data.taxonomies, 'taxonomy');
    rename(data.fields, 'field');
    for (const field of data.fields) {
      field.taxonomy_id = renamed.get(field.taxonomy_id)!;
      field.picklist_id = field.picklist_id === null ? null : renamed.get(field.picklist_id)!;
    }
    for (const taxonomy of data.taxonomies) taxonomy.field_ids = taxonomy.field_ids.map((id) => renamed.get(id)!);

    // Records are computed from their index: the n-th record's id comes from the scheme, and a
    // lookup by id finds the index back (a map built on the first retrieval).
    const records = data.records;
    const first = counters.get('record') ?? 0;
    counters.set('record', first + records.count);
    const ids = Array.from({ length: records.count }, (_, index) => scheme('record', first + index + 1, account.id));
    let byId: Map<string, number> | null = null;
    records.idAt = (index) => ids[index]!;
    records.indexOf = (id) => (byId ??= new Map(ids.map((value, index) => [value, index]))).get(id) ?? null;
  }

  // Keys: those issued before this change (the run's main and other keys) and every later one.
  const renameKey = (account: Account, record: ApiKeyRecord) => {
    const old = record.id;
    (record as { id: string }).id = next('api_key', account.id);
    const entries = [...account.keys.entries()].map(([id, key]): [string, ApiKeyRecord] => [id === old ? record.id : id, key]);
    account.keys.clear();
    for (const [id, key] of entries) account.keys.set(id, key);
  };
  for (const account of store.accounts) for (const key of [...account.keys.values()]) renameKey(account, key);
  const createKey = store.createKey.bind(store);
  store.createKey = (account, name) => {
    const created = createKey(account, name);
    renameKey(account, created.record);
    return created;
  };
  // Submissions (the only resource the routes number with the store's sequence) when created.
  store.nextId = () => next('submission', 'runtime');
}
