import { defineVariant } from './variant.js';

/**
 * Submission creation requires workspace_id and rows (declared in the profile; the reference
 * honours it): a field left out takes a default (the queried workspace, the first taxonomy, no rows).
 */
export default defineVariant({
  description: 'requires only workspace_id and rows in the body of a submission',
  openPoint: 'required-body-fields',
  atRisk: ['ERR-3', 'ERR-7', 'SUB-1', 'SUB-2', 'SUB-3', 'SUB-5'],
  profile: (p) => ({ ...p, submissions: { ...p.submissions, requiredBodyFields: ['workspace_id', 'rows'] } }),
});
