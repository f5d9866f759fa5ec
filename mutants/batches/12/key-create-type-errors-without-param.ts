import { defineMutant } from '../../mutant.js';
import { beforeHandler, pathOf } from '../../support.js';

/*
 * How this happens: key creation validates its body with a JSON schema (Ajv), and the vendor's
 * mapper from Ajv errors to the API envelope takes `param` from `error.params.missingProperty`.
 * That member exists only on `required` errors, so a missing name still gets its 400 naming
 * `name`, but a `type` error (a name that is not a string, a body that is not an object) goes out
 * as a 422 whose param is null. The hand-written check for an empty name still names it.
 */
export default defineMutant({
  description:
    'Key creation with a name of the wrong type (a number, null, an object) or a body that is not a JSON object answers 422 invalid_request_error with param null instead of naming the input.',
  breaks: { 'ERR-4': 'fail' },
  modify: (reference) => {
    beforeHandler(reference, async (req, reply) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/api_keys') return;
      const body = req.body;
      const typeError = (path: string | null, message: string) =>
        reply.code(422).send({ error: { type: 'invalid_request_error', code: 'invalid_type', message, param: null, path } });
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return typeError(null, 'body must be object');
      if ('name' in body && typeof (body as { name: unknown }).name !== 'string') return typeError('name', 'name must be string');
    });
  },
});
