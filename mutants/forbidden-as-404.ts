import { defineMutant } from './mutant.js';
import { beforeHandler, pathOf } from './support.js';

/** Admin endpoints are hidden from API keys by answering "not found". */
export default defineMutant({
  description: 'answers an admin-only request made with an API key with 404 instead of 403',
  breaks: { 'AUTH-4': 'fail' },
  modify: (reference) => {
    const probe = reference.state.profile.forbiddenProbe;
    if (!probe) return;
    beforeHandler(reference, async (req, reply) => {
      if (req.method === probe.method && pathOf(req) === probe.path) {
        await reply.code(404).send({ error: { type: 'not_found_error', code: null, message: 'Not found.', param: null, path: null } });
      }
    });
  },
});
