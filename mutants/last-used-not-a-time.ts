import { defineMutant } from './mutant.js';
import { rewriteKeyList } from './support.js';

/** The key list shows a word where a used key's last-use time belongs. */
export default defineMutant({
  description: 'shows "recently" as the last-use time of every key that was used',
  breaks: { 'KEY-3': 'fail' },
  collateral: ['KEY-7'],
  modify: (reference) =>
    rewriteKeyList(reference, (page, lastUsedAt) => {
      for (const item of page.items) if (item[lastUsedAt] !== null) item[lastUsedAt] = 'recently';
    }),
});
