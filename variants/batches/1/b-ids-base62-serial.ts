import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: services that keep integer serial primary keys and expose them
 * base62-encoded (digits, then A-Z, then a-z) behind a type prefix, as URL shorteners and many
 * Rails/Django/Go back ends do (hashid-style encoders, Stripe-like `cus_` prefixes): short,
 * URL-safe, and one index lookup. Each table has its own sequence shared by all accounts, so ids
 * are small and consecutive: `ws_1`, `rec_A`, `rec_a`, `rec_1W`. Base62 is case-sensitive by
 * construction, so once a table passes 36 rows it holds ids that differ only in letter case
 * (`rec_A` is serial 10, `rec_a` serial 36): both are real, distinct resources.
 * Here: every identifier the API shows (workspaces, governance models, taxonomies, fields,
 * picklists, records, API keys, submissions) is `<table prefix>_<base62 serial>`, references between
 * resources (a taxonomy's field ids, a field's taxonomy and picklist) follow, and lookups are exact
 * (case-sensitive), as a `utf8mb4_bin` / PostgreSQL text comparison is.
 *
 * Why it is conformant: every `id` stays a string (Resources and their fields; "identifier", format
 * not stated), unique within its collection (ids differing in case are different strings), and
 * retrievable exactly as listed. Sequences are per table across accounts, so no id of one account
 * is an id of another: another account's resource is still 404 `not_found_error` and never listed
 * (Authentication 4). URL paths are case-sensitive (RFC 3986 section 6.2.2.1 leaves only scheme
 * and host case-insensitive), and every id uses unreserved characters only. A
 * non-canonical spelling of a serial (`rec_01`) or an id outside the account's rows is 404.
 * Reading taken: an identifier is an opaque, case-sensitive string; nothing in the document says a
 * changed letter case names no resource.
 */

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function base62(serial: number): string {
  let out = '';
  let rest = serial;
  do {
    out = ALPHABET[rest % 62]! + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out;
}

/** The serial a base62 text spells, or null; 8 digits at most (62^8 is below 2^53). */
function serialOf(text: string): number | null {
  if (!/^[0-9A-Za-z]{1,8}$/.test(text)) return null;
  let serial = 0;
  for (const ch of text) serial = serial * 62 + ALPHABET.indexOf(ch);
  return serial;
}

export default defineVariant({
  description:
    'exposes serial primary keys base62-encoded behind a table prefix (ws_1, rec_A, rec_a, key_2B), per-table sequences shared by all accounts; lookups are case-sensitive',
  openPoint: 'id-format',
  atRisk: ['RES-4', 'RES-6', 'RES-7', 'ERR-5', 'ERR-9', 'AUTH-6', 'KEY-5', 'KEY-6', 'SUB-1', 'SUB-4'],
  // Ids of the seed data change: a profile that named a workspace or taxonomy by its old id would
  // name nothing now, so such a fact is withdrawn (null: the first of the list, as the profile
  // format defines). Unchanged when the reference's profile declares none.
  profile: (reference) =>
    reference.submissions.workspaceId === null && reference.submissions.taxonomyId === null
      ? reference
      : { ...reference, submissions: { ...reference.submissions, workspaceId: null, taxonomyId: null } },
  modify: ({ state }) => {
    const { store } = state;
    const sequences = new Map<string, number>();
    const next = (table: string): string => {
      const serial = (sequences.get(table) ?? 0) + 1;
      sequences.set(table, serial);
      return `${table}_${base62(serial)}`;
    };
    let recordSerials = 0;

    for (const account of store.accounts) {
      const { data } = account;
      const renamed = new Map<string, string>();
      const renumber = (items: { id: string }[], table: string): void => {
        for (const item of items) {
          const id = next(table);
          renamed.set(item.id, id);
          item.id = id;
        }
      };
      renumber(data.workspaces, 'ws');
      renumber(data.governanceModels, 'gm');
      renumber(data.taxonomies, 'tx');
      renumber(data.fields, 'fd');
      renumber(data.picklists, 'pl');
      const moved = (id: string): string => renamed.get(id) ?? id;
      for (const taxonomy of data.taxonomies) taxonomy.field_ids = taxonomy.field_ids.map(moved);
      for (const field of data.fields) {
        field.taxonomy_id = moved(field.taxonomy_id);
        field.picklist_id = field.picklist_id === null ? null : moved(field.picklist_id);
      }

      // Records are computed from their index: serials first+1 .. first+count of the records table.
      const records = data.records;
      const first = recordSerials;
      recordSerials += records.count;
      records.idAt = (index: number): string => `rec_${base62(first + index + 1)}`;
      records.indexOf = (id: string): number | null => {
        if (!id.startsWith('rec_')) return null;
        const serial = serialOf(id.slice('rec_'.length));
        if (serial === null) return null;
        const index = serial - first - 1;
        return index >= 0 && index < records.count && records.idAt(index) === id ? index : null;
      };

      // Keys made before the variant, in the order they were made (the map keeps it).
      const keys = [...account.keys.values()];
      account.keys.clear();
      for (const key of keys) {
        (key as { id: string }).id = next('key');
        account.keys.set(key.id, key);
      }
    }

    // Every key made later, and every submission.
    const create = store.createKey.bind(store);
    store.createKey = (account, name) => {
      const created = create(account, name);
      const previous = created.record.id;
      (created.record as { id: string }).id = next('key');
      account.keys.delete(previous);
      account.keys.set(created.record.id, created.record);
      return created;
    };
    store.nextId = (prefix: string): string => next(prefix);
  },
});
