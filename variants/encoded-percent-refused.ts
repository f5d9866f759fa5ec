import { defineVariant } from './variant.js';

/**
 * A request firewall in front of the API (Spring Security's StrictHttpFirewall, IIS's filter of
 * double escaping) refuses a path that holds an encoded percent (`%25`) itself, with a 400 in its
 * own words, before the API's routes or its errors see the request.
 */
export default defineVariant({
  description: "refuses any path holding an encoded percent sign (%25) with a 400 of the firewall's own JSON, before the API sees it",
  openPoint: 'http-transport',
  atRisk: ['ERR-5', 'ERR-9', 'GEN-1', 'GEN-3'],
  modify: ({ app }) => {
    app.addHook('onRequest', async (req, reply) => {
      const path = req.url.split('?')[0]!;
      if (!/%25/i.test(path)) return;
      return reply.code(400).header('content-type', 'application/json').send({ timestamp: new Date().toISOString(), status: 400, error: 'Bad Request', path });
    });
  },
});
