import { defineVariant } from '../../variant.js';
import type { Account, ApiKeyRecord } from '../../../reference/store.js';

/*
 * Where this happens in the field: API-key consoles and key-list endpoints that show a masked key
 * so that a person can tell two keys apart at a glance: the prefix, the first few and the last few
 * characters around an ellipsis (`sk_live_...abcd` on Stripe's dashboard, the `sk-ant-...` /
 * `sk-...` forms of LLM vendors' consoles, the masked access keys of cloud consoles). A team ships
 * it because support staff and customers match a leaked or misbehaving key against the list by
 * its first characters as often as by its last ones (log lines and secret scanners usually quote
 * the beginning of a token). The masked form replaces the reference's `hint` member (last four
 * only) with `masked_key`, in the key list and in the creation response alike, for every account.
 * The leading characters are kept at creation; for keys issued before the feature (here: the two
 * seeded keys) they are filled in on the key's first successful authentication, the usual
 * backfill of a migration (until then such a key shows `<prefix>...<last four>`).
 *
 * Why it is conformant: the fields of a key record beyond its name and last-use time are not shown
 * (Other resources), so extra members are open. Listing never returns the secret (Details and open
 * points; Authentication 5): the masked form holds four characters after the prefix and the last
 * four, which are not adjacent in a 32-character secret, so no run of more than four consecutive
 * characters of the secret ever appears again; the prefix itself is fixed and public (Authentication
 * 2). What is kept besides the key's SHA-256 hash is eight characters of it, as the reference keeps
 * four: a hint, not the key, which cannot be rebuilt from it. Name and last-use time, status codes,
 * paths and member names of the profile are unchanged. Reading taken: "never the secret" forbids
 * the secret or any meaningful part of it, not a short masked hint that starts with the public
 * prefix (the catalogue's own line is runs of 8 or more consecutive characters).
 */

/** Characters of the secret shown after the prefix; the reference's last-four hint stays as it is. */
const HEAD = 4;
const ELLIPSIS = '...';

export default defineVariant({
  description:
    'the key list and the creation response show a masked key, `<prefix><first four>...<last four>`, in a `masked_key` member instead of a last-four `hint`',
  openPoint: 'extra-members',
  atRisk: ['KEY-3', 'KEY-4', 'AUTH-5', 'KEY-1'],
  modify: (reference) => {
    const { app, state } = reference;
    const { store, profile } = state;
    const prefix = store.keyPrefix;
    /** The first characters of each key's secret, by key id (never the whole secret). */
    const heads = new Map<string, string>();
    const headOf = (token: string): string | null =>
      token.startsWith(prefix) && token.length >= prefix.length + HEAD * 2 ? token.slice(prefix.length, prefix.length + HEAD) : null;

    const create = store.createKey.bind(store);
    store.createKey = (account: Account, name: string) => {
      const created = create(account, name);
      const head = headOf(created.secret);
      if (head !== null) heads.set(created.record.id, head);
      return created;
    };
    // Backfill for keys issued before the masked form: the token that just authenticated is the key.
    const find = store.findKey.bind(store);
    store.findKey = (token: string): ApiKeyRecord | null => {
      const found = find(token);
      if (found && !heads.has(found.id)) {
        const head = headOf(token);
        if (head !== null) heads.set(found.id, head);
      }
      return found;
    };

    const masked = (record: ApiKeyRecord): string => `${prefix}${heads.get(record.id) ?? ''}${ELLIPSIS}${record.hint}`;

    /** The account's key a view item shows: by the profile's id member, else by its last-four hint. */
    const recordOf = (account: Account, item: Record<string, unknown>): ApiKeyRecord | undefined => {
      const idField = profile.apiKeyFields.id;
      if (idField !== null) {
        const id = item[idField];
        return typeof id === 'string' ? account.keys.get(id) : undefined;
      }
      const candidates = [...account.keys.values()].filter((k) => item.hint === `…${k.hint}`);
      return candidates.length === 1 ? candidates[0] : undefined;
    };
    /** The item with `masked_key` in the place of `hint`, members in the same order. */
    const rewrite = (account: Account, item: unknown): unknown => {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
      const view = item as Record<string, unknown>;
      const record = recordOf(account, view);
      if (!record || !('hint' in view)) return item;
      const out: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(view)) {
        if (name === 'hint') out.masked_key = masked(record);
        else out[name] = value;
      }
      return out;
    };

    const listPath = profile.paths.apiKeyList;
    app.addHook('onSend', async (req, reply, payload) => {
      if (typeof payload !== 'string' || reply.statusCode < 200 || reply.statusCode >= 300) return payload;
      const path = req.url.split('?')[0]!;
      const isCreate = req.method === 'POST' && path === '/api/v1/api_keys';
      const isList = req.method === 'GET' && listPath !== null && path === listPath;
      if (!isCreate && !isList) return payload;
      const account = req.account as Account | undefined;
      if (!account) return payload;
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (isList) {
        const page = body as { items?: unknown };
        if (typeof body !== 'object' || body === null || !Array.isArray(page.items)) return payload;
        page.items = page.items.map((item: unknown) => rewrite(account, item));
      } else {
        body = rewrite(account, body);
      }
      reply.removeHeader('content-length');
      return JSON.stringify(body);
    });
  },
});
