import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';

/*
 * How this happens: workspaces have a bigint surrogate primary key `id` and a public identifier
 * `public_id`. The list endpoint has a hand-written serializer that maps `public_id` to `id`; the
 * single-workspace endpoint was moved to the ORM's generic `findOne({ public_id })` plus the
 * model's default `toJSON()`, which writes the row's own `id` column. Retrieval therefore answers
 * with the internal numeric key as `id` (and the client can no longer match it to its list item).
 */
export default defineMutant({
  description:
    'Retrieving a workspace by its id returns the internal numeric primary key (e.g. "id": 3) in the id member instead of the workspace\'s string id shown in the list.',
  breaks: { 'RES-1': 'fail', 'RES-7': 'warn' },
  collateral: [],
  modify: (reference) => {
    const prefix = itemPrefix(reference.state.profile.paths.workspace);
    if (!prefix) return;
    // The surrogate keys, in insertion order across all accounts.
    const surrogate = new Map<string, number>();
    for (const account of reference.state.store.accounts) {
      for (const workspace of account.data.workspaces) surrogate.set(workspace.id, surrogate.size + 1);
    }
    reference.app.addHook('onSend', async (req, reply, payload) => {
      const path = pathOf(req);
      if (req.method !== 'GET' || !path.startsWith(prefix) || path.length === prefix.length) return payload;
      if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      let body: { id?: unknown };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      const key = typeof body.id === 'string' ? surrogate.get(body.id) : undefined;
      if (key === undefined) return payload;
      return JSON.stringify({ ...body, id: key });
    });
  },
});
