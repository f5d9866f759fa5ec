import { rewriteKeyList } from '../mutants/support.js';
import { defineVariant } from './variant.js';

/**
 * The key list writes a key's last-use time as a Unix time in whole seconds (a number), null
 * until the key is used: the document names a last-use time and shows no representation of it.
 */
export default defineVariant({
  description: 'writes the last-use time in the key list as Unix seconds (a number), not a date-time string',
  openPoint: 'last-use-format',
  atRisk: ['KEY-3', 'KEY-7'],
  modify: (reference) =>
    rewriteKeyList(reference, (page, lastUsedAt) => {
      for (const item of page.items) if (typeof item[lastUsedAt] === 'string') item[lastUsedAt] = Math.floor(Date.parse(item[lastUsedAt]) / 1000);
    }),
});
