import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: the submission controller authorises the workspace it writes to through the
 * caller's account (`account.workspaces.find(id)`), but the taxonomy in the body is only checked
 * for existence by a model validation, `validates :taxonomy, presence: true`, which loads
 * `Taxonomy.find_by(id:)` across all tenants. The workspace check was reviewed as "the
 * authorisation"; nobody thought of the taxonomy as a second reference to another account's data.
 * A submission into one's own workspace that names another account's taxonomy is accepted (201)
 * and stored against it; a taxonomy id that exists in no account is still refused.
 */
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export default defineMutant({
  description:
    "Submission creation checks the body's taxonomy_id against every account's taxonomies, so a submission naming another account's taxonomy is accepted (201) instead of refused.",
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['SUB-4'],
  modify: (reference) => {
    const { store } = reference.state;
    const foreign = new WeakMap<object, string>();
    reference.app.addHook('preHandler', async (req) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      const body = req.body;
      if (!isObject(body) || typeof body.taxonomy_id !== 'string') return;
      const id = body.taxonomy_id;
      if (req.account.data.taxonomies.some((t) => t.id === id)) return;
      const owner = store.accounts.find((a) => a !== req.account && a.data.taxonomies.some((t) => t.id === id));
      if (!owner) return;
      // The global lookup finds it: the rest of the validation runs as for a taxonomy of the caller's own.
      foreign.set(req, id);
      body.taxonomy_id = req.account.data.taxonomies[0]!.id;
    });
    // The created submission is the object sent (and the one kept): it records the taxonomy as named.
    reference.app.addHook('preSerialization', async (req, reply, payload: unknown) => {
      const id = foreign.get(req);
      if (id !== undefined && reply.statusCode === 201 && isObject(payload) && 'taxonomy_id' in payload) payload.taxonomy_id = id;
      return payload;
    });
  },
});
