import { defineMutant } from '../../mutant.js';

/*
 * How this happens: to save the second query, the list endpoints read the total with a window
 * function on the page query itself: `SELECT *, COUNT(*) OVER () AS total_count ... LIMIT ? OFFSET ?`.
 * The count rides on every returned row, so a page past the end, which returns no rows, has no
 * count at all, and the serializer's `rows[0]?.total_count ?? 0` turns that into 0. Every page
 * inside the collection is right.
 */
export default defineMutant({
  description: 'A page past the end of a list answers 200 with empty items and has_more false, but total_count 0 instead of the size of the collection.',
  breaks: { 'PAG-9': 'warn' },
  collateral: ['PAG-7', 'PAG-10', 'SUB-4'],
  modify: (reference) => {
    const faithful = reference.behaviour.totalCount;
    reference.behaviour.totalCount = (total, pageItems) => (pageItems === 0 ? 0 : faithful(total, pageItems));
  },
});
