import { defineMutant } from './mutant.js';
import { rewriteKeyList } from './support.js';

/** The last-use time is written once, when the key is made, and never again. */
export default defineMutant({
  description: "shows a key's creation time as its last-use time, whatever its use",
  breaks: { 'KEY-7': 'warn' },
  modify: (reference) =>
    rewriteKeyList(reference, (page, lastUsedAt) => {
      for (const item of page.items) item[lastUsedAt] = item.created_at;
    }),
});
