import { defineVariant } from './variant.js';

/** Submission creation names its workspace query parameter "workspace" (declared). */
export default defineVariant({
  description: 'takes the workspace of a new submission in the query parameter "workspace"',
  openPoint: 'workspace-param',
  atRisk: ['SUB-1', 'SUB-2', 'SUB-3', 'SUB-5', 'ERR-3', 'ERR-7', 'AUTH-1'],
  profile: (p) => ({ ...p, submissions: { ...p.submissions, workspaceQueryParam: 'workspace' } }),
});
