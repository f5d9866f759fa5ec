import { defineMutant } from '../../mutant.js';

/*
 * How this happens: to save a second query, the shared list repository switched from a separate
 * `SELECT COUNT(*)` to `SELECT ..., COUNT(*) OVER () AS total_count ... LIMIT ? OFFSET ?` and
 * reads total_count from the first returned row, with `rows[0]?.total_count ?? 0`. That works on
 * every page that has rows, and on an empty collection. A page past the end returns no rows, so
 * there is no row to read the count from and total_count falls to 0 although the collection is
 * not empty.
 */
export default defineMutant({
  description: 'A list page past the last page answers 200 with empty items and has_more false but total_count 0 instead of the number of matching resources.',
  breaks: { 'PAG-9': 'warn' },
  collateral: ['PAG-7', 'PAG-10', 'SUB-4', 'KEY-6'],
  modify: (reference) => {
    const faithful = reference.behaviour.totalCount;
    reference.behaviour.totalCount = (total, pageItems) => (pageItems === 0 ? 0 : faithful(total, pageItems));
  },
});
