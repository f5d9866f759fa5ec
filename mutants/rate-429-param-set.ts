import { rewriteJson } from './support.js';
import { defineMutant } from './mutant.js';

/** The throttle blames the credential: param names the Authorization header. */
export default defineMutant({
  description: 'a 429 names "Authorization" in param instead of null',
  breaks: { 'RATE-3': 'fail' },
  modify: (reference) => {
    rewriteJson(reference, (body, _req, reply) => {
      if (reply.statusCode === 429 && body?.error) body.error.param = 'Authorization';
      return body;
    });
  },
});
