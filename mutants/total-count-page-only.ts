import { defineMutant } from './mutant.js';

/** `total_count: rows.length` after the LIMIT/OFFSET query, instead of a separate COUNT(*). */
export default defineMutant({
  description: 'reports as total_count the number of items on the page, not across all pages',
  breaks: { 'PAG-7': 'fail' },
  // SUB-4 counts submissions through the same totals.
  collateral: ['PAG-6', 'PAG-8', 'PAG-9', 'SUB-4'],
  modify: ({ behaviour }) => {
    behaviour.totalCount = (_total, pageItems) => pageItems;
  },
});
