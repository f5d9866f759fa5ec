import { sendError } from '../reference/errors.js';
import { defineVariant } from './variant.js';
import { knownRoutes, methodsOn } from './support/routes.js';

/**
 * Only the methods the document lists are served: HEAD and OPTIONS on any path of the API are
 * 405 with the error envelope and an Allow header (the answer to HEAD without its body, as HTTP
 * requires). The reference serves HEAD wherever it serves GET and already refuses OPTIONS.
 */
export default defineVariant({
  description: 'answers HEAD and OPTIONS on every path of the API with 405 and the error envelope (HEAD without a body)',
  openPoint: 'other-methods',
  atRisk: ['GEN-1', 'ERR-1', 'ERR-2', 'ERR-8'],
  modify: (reference) => {
    const routes = knownRoutes(reference);
    // After authentication (the reference's onRequest hook, registered first): without a key, 401.
    reference.app.addHook('onRequest', async (req, reply) => {
      if ((req.method !== 'HEAD' && req.method !== 'OPTIONS') || !req.url.startsWith('/api/')) return;
      const path = req.url.split('?')[0]!;
      const allowed = methodsOn(routes, path);
      if (allowed.length === 0) return; // an unknown path: the reference's 404
      reply.header('allow', allowed.join(', '));
      return sendError(reply, 405, 'invalid_request_error', `${req.method} is not supported on ${path}.`, { code: 'method_not_allowed' });
    });
  },
});
