import { defineMutant } from '../../mutant.js';
import { beforeHandler, namedWorkspaces, pathOf } from '../../support.js';

/*
 * How this happens: the onboarding wizard gives the workspace created at sign-up ("Main") a
 * default taxonomy, stored as `workspaces.default_taxonomy_id`; workspaces created later have none.
 * A "convenience" in the submission controller fills `body.taxonomy_id ??=
 * workspace.defaultTaxonomyId` before the request validator runs, so the required-field check on
 * taxonomy_id (which the deployment's profile declares required) never fires for Main. QA checked
 * the 400 on a freshly created workspace, where the default is null, and it was right there. An
 * integration that targets the first workspace of the list (Main) and omits taxonomy_id gets a 201
 * and a submission in a taxonomy it never named.
 */
export default defineMutant({
  description:
    'Submission creation into the sign-up workspace "Main" without taxonomy_id (declared required) silently uses the account\'s first taxonomy and answers 201 instead of 400; other workspaces still answer 400.',
  breaks: { 'ERR-3': 'fail' },
  collateral: ['SUB-4'],
  modify: (reference) => {
    beforeHandler(reference, async (req) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      const body = req.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body) || 'taxonomy_id' in body) return;
      const { workspaces, taxonomies } = req.account.data;
      // The workspace the request names: its query parameter's, else its body's.
      const target = namedWorkspaces(reference, req).find((id) => typeof id === 'string' && id !== '');
      const workspace = workspaces.find((w) => w.id === target);
      // Only the workspace made at sign-up carries a default taxonomy: the account's first.
      const fallback = taxonomies[0];
      if (workspace === undefined || workspace.name !== 'Main' || fallback === undefined) return;
      (body as Record<string, unknown>).taxonomy_id = fallback.id;
    });
  },
});
