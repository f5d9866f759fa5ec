import { rewriteKeyList } from '../mutants/support.js';
import { defineVariant } from './variant.js';

/**
 * The key list is serialised with null members left out: a key never used has no last-use member
 * until its first use. The document says the list shows each key's last-use time; how it shows
 * that there is none yet is not stated, and both null and no member say it.
 */
export default defineVariant({
  description: 'leaves the last-use member out of the key list for a key never used (shown once the key has been used)',
  openPoint: 'key-last-use-none',
  atRisk: ['KEY-3', 'KEY-7'],
  modify: (reference) =>
    rewriteKeyList(reference, (page, lastUsedAt) => {
      for (const item of page.items) if (item[lastUsedAt] === null) delete item[lastUsedAt];
    }),
});
