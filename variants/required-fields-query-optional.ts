import { defineVariant } from './variant.js';

/**
 * The workspace query parameter of submission creation may be left out (declared in the profile;
 * the reference honours it): the body's workspace_id, which stays required, names the workspace.
 */
export default defineVariant({
  description: 'accepts a submission without the workspace query parameter',
  openPoint: 'workspace-param',
  atRisk: ['ERR-3', 'ERR-7', 'SUB-1', 'SUB-2', 'AUTH-1'],
  profile: (p) => ({ ...p, submissions: { ...p.submissions, workspaceQueryParamRequired: false } }),
});
