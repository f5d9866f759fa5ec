import { defineVariant } from './variant.js';

/** Submissions are listed at /api/v1/batches, filtered by "workspace" and "taxonomy" (declared). */
export default defineVariant({
  description: 'lists submissions at GET /api/v1/batches with the filters "workspace" and "taxonomy"',
  openPoint: 'submission-list',
  atRisk: ['SUB-4', 'PAG-1', 'PAG-7', 'AUTH-1', 'AUTH-6'],
  profile: (p) => ({
    ...p,
    paths: { ...p.paths, submissionList: '/api/v1/batches' },
    submissions: { ...p.submissions, listFilters: { workspace: 'workspace', taxonomy: 'taxonomy' } },
  }),
});
