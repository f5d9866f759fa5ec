import { defineVariant } from './variant.js';

/**
 * The creation time of the n-th item, to the second. Items were written one a second, except that
 * every tenth item was written in the same second as the one before it: items 9 and 10, 19 and 20,
 * … tie. Every other item has a time of its own.
 */
const createdSecond = (index: number) => (index > 0 && index % 10 === 0 ? index - 1 : index);

/**
 * ORDER BY created_at (to the second) with no tie-breaker: most items have a time of their own, so
 * most of every list keeps one order; the pairs written in the same second come back in whatever
 * order each query plan yields, a new coin toss on every request. Unlike the mutant
 * unstable-list-order, only those pairs move: a walk can repeat or miss an item only where a pair
 * straddles a page boundary.
 */
export default defineVariant({
  description:
    'orders every list by a creation time to the second with no tie-breaker: the few items created in the same second come back in a random order on each request',
  openPoint: 'list-order',
  atRisk: ['PAG-2', 'PAG-7', 'PAG-8', 'PAG-10', 'RES-4', 'RES-7', 'AUTH-6', 'KEY-3', 'KEY-6', 'SUB-4'],
  mayWarn: {
    'PAG-8':
      'items created in the same second tie and come back in a random order on each request: where a tied pair straddles a page boundary, a walk may see one item twice and miss the other (the document fixes no order, and PAG-8 is a SHOULD)',
  },
  modify: ({ behaviour }) => {
    behaviour.listOrder = (total) =>
      Array.from({ length: total }, (_, index) => ({ index, second: createdSecond(index), toss: Math.random() }))
        .sort((a, b) => a.second - b.second || a.toss - b.toss)
        .map((item) => item.index);
  },
});
