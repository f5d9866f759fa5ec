import type { ApiKeyRecord } from '../../../reference/store.js';
import { defineMutant } from '../../mutant.js';
import { rewriteKeyList } from '../../support.js';

/** Characters of the secret, after the prefix, that the new preview shows at its start. */
const PREVIEW_CHARS = 8;

/*
 * How this happens: support asked for a way to tell keys apart in the key list, since a 4-character
 * hint ("…ab12") is ambiguous once an account has a few dozen keys. The team ships the display
 * format other vendors use ("sk_AbCdEfGh…ab12") behind the flag `key-display-prefix`. Only a hash
 * is kept of each key, so the preview cannot be derived for keys that already exist: from the
 * release on, key creation stores a display prefix next to the hash, and the list renders it where
 * it has one. Keys created before the flag went on (the run's own main key among them) still show
 * the short hint, so a glance at the list of an old account looks unchanged. Nobody counted that the
 * preview's first 8 characters after the prefix are themselves part of the secret.
 */
export default defineMutant({
  description:
    'API keys created since this release show a recognisable preview in the key list (the prefix and first 8 characters of the secret, then its last 4) in place of the 4-character hint; older keys keep the short hint.',
  breaks: { 'KEY-3': 'fail', 'KEY-4': 'fail' },
  modify: (reference) => {
    const { store } = reference.state;
    const idField = reference.state.profile.apiKeyFields.id;
    /** Keys created since the flag went on (after the server's seed keys), with their stored display prefix. */
    const previews = new Map<string, { record: ApiKeyRecord; preview: string }>();
    const create = store.createKey.bind(store);
    store.createKey = (account, name) => {
      const created = create(account, name);
      const shown = created.secret.slice(0, store.keyPrefix.length + PREVIEW_CHARS);
      previews.set(created.record.id, { record: created.record, preview: `${shown}…${created.record.hint}` });
      return created;
    };
    const find = (item: Record<string, unknown>) => {
      if (idField) return previews.get(String(item[idField]));
      // No id member in the list: the row is matched by its name and creation time.
      return [...previews.values()].find((p) => p.record.name === item.name && p.record.createdAt === item.created_at);
    };
    rewriteKeyList(reference, (page) => {
      for (const item of page.items) {
        if (typeof item !== 'object' || item === null) continue;
        const stored = find(item as Record<string, unknown>);
        if (stored) (item as Record<string, unknown>).hint = stored.preview;
      }
    });
  },
});
