import { defineMutant } from '../../mutant.js';
import { pathOf, rewriteJson } from '../../support.js';

/*
 * How this happens: key management moved into the identity service, which validates bodies with a
 * JSON-schema validator and maps its errors to the API envelope by itself. That mapper writes the
 * validator's instance path (`/name`, or nothing for the body as a whole) into `path` and never
 * fills `param`, so every 422 of key creation comes back with `param: null`. The 400 for a missing
 * name is written by hand and is unaffected.
 */
export default defineMutant({
  description:
    'A 422 from key creation (body not an object, a name that is empty or not a string) has param null; the field shows only as a JSON pointer in path.',
  breaks: { 'ERR-4': 'fail' },
  modify: (reference) => {
    rewriteJson(reference, (body, req, reply) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/api_keys' || reply.statusCode !== 422) return body;
      const error = (body as { error?: { param?: string | null; path?: string | null } }).error;
      if (!error) return body;
      error.path = error.param && error.param !== 'body' ? `/${error.param}` : null;
      error.param = null;
      return body;
    });
  },
});
