import { defineMutant } from '../../mutant.js';

/*
 * How this happens: to save a round trip, the list query builder was changed to fetch the page and
 * its total in one statement, `SELECT *, COUNT(*) OVER () AS total_count ... LIMIT $1 OFFSET $2`,
 * and the envelope reads total_count from the first row, defaulting to 0 when there is none. The
 * window count is right on every page that has rows; a page past the end has no rows to carry it,
 * so it answers 200 with empty items, has_more false and total_count 0 instead of the real total.
 */
export default defineMutant({
  description:
    'Every list takes total_count from a COUNT(*) OVER () column of the page query, so a page past the end answers total_count 0 instead of the number of matching resources.',
  breaks: { 'PAG-9': 'warn' },
  collateral: ['PAG-7', 'PAG-10', 'SUB-4'],
  modify: (reference) => {
    const faithful = reference.behaviour.totalCount;
    reference.behaviour.totalCount = (total, pageItems) => (pageItems === 0 ? 0 : faithful(total, pageItems));
  },
});
