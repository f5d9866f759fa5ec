import { defineMutant } from './mutant.js';

/** OFFSET `(page - 1) * limit - 1` from a 0-/1-based mix-up: each page repeats the last item of the one before. */
export default defineMutant({
  description: 'starts every page after the first one item early, repeating an item across each page boundary',
  breaks: { 'PAG-8': 'warn', 'PAG-7': 'fail' },
  // At limit 1 the repeat pushes the last item onto an extra page: has_more, the page past the end
  // and the walk of a filtered submissions list (SUB-4) go wrong too.
  collateral: ['PAG-6', 'PAG-9', 'SUB-4'],
  modify: ({ behaviour }) => {
    behaviour.pageWindow = (total, page, limit) => {
      const offset = page > 1n ? (page - 1n) * limit - 1n : 0n;
      if (offset >= BigInt(total)) return { start: total, end: total, hasMore: false };
      const start = Number(offset);
      const end = Math.min(total, start + Number(limit));
      return { start, end, hasMore: end < total };
    };
  },
});
