import { defineVariant } from './variant.js';

/**
 * ORDER BY created_at DESC: every list serves its newest item first, the usual default of an
 * activity feed. The order is the same on every request, so a walk still sees each item once.
 */
export default defineVariant({
  description: 'serves every list newest first: the reverse of the order the items were created in, on every page',
  openPoint: 'list-order',
  atRisk: ['PAG-2', 'PAG-8', 'PAG-10', 'RES-4', 'RES-7', 'AUTH-6', 'KEY-3', 'KEY-6', 'SUB-4'],
  modify: ({ behaviour }) => {
    behaviour.listOrder = (total) => Array.from({ length: total }, (_, i) => total - 1 - i);
  },
});
