import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';

/*
 * How this happens: the taxonomy, field and picklist endpoints read through the ORM, which the
 * upgrade took across a major version. `findUniqueOrThrow` used to throw the ORM's `NotFoundError`,
 * which the error mapper turned into a 404 with `instanceof NotFoundError`; the new major removed
 * that class and throws its generic known-request error (code P2025) instead, so the mapper's test
 * never matches and the lookup ends in the catch-all 500. Lists and every id taken from a list work
 * as before; workspaces and records use another repository and are unaffected. Only a client that
 * asks for a taxonomy, field or picklist that does not exist gets the 500.
 */
export default defineMutant({
  description:
    'Retrieving a taxonomy, field or picklist by an id that does not exist answers 500 api_error instead of 404 not_found_error (existing ids and the other resources are unaffected).',
  breaks: { 'ERR-5': 'fail', 'ERR-9': 'warn', 'GEN-3': 'warn' },
  collateral: ['RES-5'],
  modify: (reference) => {
    const { paths } = reference.state.profile;
    const catalogue: Array<[string | null, 'taxonomies' | 'fields' | 'picklists']> = [
      [itemPrefix(paths.taxonomy), 'taxonomies'],
      [itemPrefix(paths.field), 'fields'],
      [itemPrefix(paths.picklist), 'picklists'],
    ];
    reference.app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'GET') return;
      const path = pathOf(req);
      for (const [prefix, collection] of catalogue) {
        if (!prefix || !path.startsWith(prefix)) continue;
        const rest = path.slice(prefix.length);
        if (rest === '' || rest.includes('/')) return; // the list, or no route at all: untouched
        const id = (req.params as { id?: unknown } | undefined)?.id;
        if (typeof id !== 'string') return;
        const items: readonly { id: string }[] = req.account.data[collection];
        if (items.some((item) => item.id === id)) return;
        return reply.code(500).send({ error: { type: 'api_error', code: null, message: 'Unexpected server error.', param: null, path: null } });
      }
    });
  },
});
