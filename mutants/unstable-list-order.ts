import { defineMutant } from './mutant.js';

/**
 * ORDER BY a column that ties (a creation time to the second, shared by every seeded row) and no
 * tie-breaker: the database returns tied rows in whatever order each query plan yields, so every
 * page is cut from a different ordering and a walk repeats some items and misses others.
 */
export default defineMutant({
  description: 'orders every list by a column that ties, without a tie-breaker: each request sees the items in another order',
  breaks: { 'PAG-8': 'warn' },
  modify: ({ behaviour }) => {
    behaviour.listOrder = (total) => {
      const order = Array.from({ length: total }, (_, i) => i);
      for (let i = total - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      return order;
    };
  },
});
