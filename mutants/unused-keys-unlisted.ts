import { defineMutant } from './mutant.js';
import { rewriteKeyList } from './support.js';

/** The key list is built from the usage records: a key never used is not listed at all. */
export default defineMutant({
  description: 'leaves keys never used out of the key list (they appear once they have been used)',
  breaks: { 'KEY-3': 'fail' },
  modify: (reference) =>
    rewriteKeyList(reference, (page, lastUsedAt) => {
      const shown = page.items.filter((item) => item[lastUsedAt] !== null);
      page.total_count -= page.items.length - shown.length;
      page.items = shown;
    }),
});
