import { defineMutant } from './mutant.js';
import { beforeHandler, pathOf } from './support.js';

/** The picklist detail route was never wired up. */
export default defineMutant({
  description: 'lists picklists but answers 404 to retrieving any of them',
  breaks: { 'RES-5': 'fail' },
  modify: (reference) => {
    const picklist = reference.state.profile.paths.picklist;
    if (!picklist) return;
    const prefix = picklist.slice(0, picklist.indexOf('{id}'));
    beforeHandler(reference, async (req, reply) => {
      if (req.method === 'GET' && pathOf(req).startsWith(prefix) && pathOf(req).length > prefix.length) {
        await reply.code(404).send({ error: { type: 'not_found_error', code: null, message: 'Not found.', param: null, path: null } });
      }
    });
  },
});
