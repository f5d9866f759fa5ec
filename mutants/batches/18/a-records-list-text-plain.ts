import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: the records list is the one endpoint that writes its JSON by hand (string
 * concatenation, so that a 10000-record page costs milliseconds). A clean-up of the list helpers
 * replaced `reply.type('application/json; charset=utf-8').send(body)` with `reply.send(body)`,
 * believing the framework labels JSON itself; it does so only for objects it serialises, and
 * labels a string payload `text/plain; charset=utf-8`. The body is the same valid JSON as before
 * and every other endpoint, serialised by the framework, is still labelled application/json.
 */
export default defineMutant({
  description: 'Successful pages of GET /api/v1/records are labelled Content-Type: text/plain; charset=utf-8, though their body is the usual JSON envelope.',
  breaks: { 'GEN-5': 'warn' },
  collateral: ['GEN-1', 'PAG-1', 'RES-3', 'RES-6'],
  modify: (reference) => {
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || pathOf(req) !== '/api/v1/records' || reply.statusCode !== 200) return payload;
      reply.header('content-type', 'text/plain; charset=utf-8');
      return payload;
    });
  },
});
