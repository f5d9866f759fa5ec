import { defineVariant } from './variant.js';
import { knownRoutes, methodsOn } from './support/routes.js';

/**
 * OPTIONS on a path of the API answers 204 with an Allow header naming the methods the path
 * serves (HEAD wherever GET is, OPTIONS itself); the reference answers it 405.
 */
export default defineVariant({
  description: 'answers OPTIONS on every path of the API with 204 and an Allow header listing its methods',
  openPoint: 'other-methods',
  atRisk: ['GEN-1', 'ERR-1', 'ERR-8'],
  modify: (reference) => {
    const routes = knownRoutes(reference);
    // After authentication (the reference's onRequest hook, registered first): without a key, 401.
    reference.app.addHook('onRequest', async (req, reply) => {
      if (req.method !== 'OPTIONS' || !req.url.startsWith('/api/')) return;
      const allowed = methodsOn(routes, req.url.split('?')[0]!);
      if (allowed.length === 0) return; // an unknown path: the reference's 404
      const methods = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
      return reply.code(204).header('allow', methods.join(', ')).send();
    });
  },
});
