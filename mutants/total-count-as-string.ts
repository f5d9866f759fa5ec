import { defineMutant } from './mutant.js';
import { isEnvelope, pathOf, rewriteJson } from './support.js';

/** node-postgres returns COUNT(*) as a bigint string, and the records list passes it on unconverted. */
export default defineMutant({
  description: 'sends total_count of the records list as a string ("250"), not an integer',
  breaks: { 'PAG-1': 'fail' },
  // Checks of other families that read the records list insist on the envelope too.
  collateral: ['RES-3', 'RES-4', 'RES-6', 'RES-7', 'AUTH-6'],
  modify: (reference) => {
    rewriteJson(reference, (body, req) => (isEnvelope(body) && pathOf(req) === '/api/v1/records' ? { ...body, total_count: String(body.total_count) } : body));
  },
});
