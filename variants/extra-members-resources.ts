import { fillPath } from '../src/profile/profile.js';
import { defineVariant } from './variant.js';

const EPOCH = Date.parse('2024-03-01T09:00:00Z');

/** Times a seeded resource was created and last updated: the n-th an hour after the one before. */
function times(n: number): { created_at: string; updated_at: string } {
  return { created_at: new Date(EPOCH + n * 3_600_000).toISOString(), updated_at: new Date(EPOCH + n * 3_600_000 + 90_000).toISOString() };
}

/**
 * Resources carry members the document does not list besides those it does: created_at,
 * updated_at and links.self on workspaces, governance models, records, taxonomies, fields and
 * picklists; updated_at on submissions (which, like keys, already show created_at). They are part
 * of each resource at its source, so a list item and its retrieval carry the same ones.
 */
export default defineVariant({
  description: 'every resource also carries created_at, updated_at and links: {self: its own URL path}',
  openPoint: 'extra-members',
  atRisk: ['RES-1', 'RES-2', 'RES-3', 'RES-5', 'RES-7', 'AUTH-6', 'SUB-4', 'KEY-4'],
  modify: ({ state }) => {
    const { paths } = state.profile;
    // Its own URL where the profile gives a retrieval path, else the list it belongs to.
    const self = (template: string | null, list: string | null, id: string) => (template ? fillPath(template, id) : list);
    for (const account of state.store.accounts) {
      const data = account.data;
      let n = 0;
      const extend = <T extends { id: string }>(items: T[], template: string | null, list: string | null) => {
        for (const item of items) Object.assign(item, times(n++), { links: { self: self(template, list, item.id) } });
      };
      extend(data.workspaces, paths.workspace, '/api/v1/workspaces');
      extend(data.governanceModels, paths.governanceModel, '/api/v1/governance_models');
      extend(data.taxonomies, paths.taxonomy, paths.taxonomies);
      extend(data.fields, paths.field, paths.fields);
      extend(data.picklists, paths.picklist, paths.picklists);

      const records = data.records;
      const at = records.at.bind(records);
      records.at = (index) => {
        const record = at(index);
        return { ...record, ...times(index), links: { self: self(paths.record, '/api/v1/records', record.id) } };
      };
      // The reference writes record pages as text for speed; here they are the records themselves.
      records.sliceJson = (start, end) => JSON.stringify(records.slice(start, end));

      // A submission gets its members as it is stored, before the creation response is sent.
      const submissions = account.submissions;
      submissions.push = (...created) => {
        for (const submission of created) {
          Object.assign(submission, { updated_at: submission.created_at });
        }
        return Array.prototype.push.apply(submissions, created);
      };
    }
  },
});
