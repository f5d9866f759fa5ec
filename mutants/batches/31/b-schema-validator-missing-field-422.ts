import type { FastifyReply } from 'fastify';
import { defineMutant } from '../../mutant.js';
import { beforeHandler, pathOf } from '../../support.js';
import { sendError } from '../../../reference/errors.js';

/*
 * How this happens: after the pentest's "insufficient input validation" finding, the team put a
 * JSON-schema validation layer in front of every write endpoint (required properties, types),
 * so that no unchecked body reaches a handler. Its error mapper turns every schema violation into
 * the API's validation error, 422 `invalid_request_error` with `param` set to the offending
 * property, the missing one included (ajv's `required` keyword is just another violation to it).
 * Wrong types still look exactly as before, so the validation tests pass; but an omitted required
 * body field, which the handlers answered 400 `missing_param`, now gets 422. The missing query
 * parameter is not part of the body schema and still gets its 400.
 */
const SUBMISSION_FIELDS = ['workspace_id', 'taxonomy_id', 'rows'] as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export default defineMutant({
  description:
    'A schema-validation layer answers an omitted required body field (submission workspace_id, taxonomy_id or rows; key name) with 422 invalid_request_error instead of 400.',
  breaks: { 'ERR-3': 'fail', 'KEY-8': 'warn' },
  collateral: ['ERR-7'],
  modify: (reference) => {
    const required = new Set<string>(reference.state.profile.submissions.requiredBodyFields ?? SUBMISSION_FIELDS);
    const violation = (reply: FastifyReply, property: string, path: string) =>
      sendError(reply, 422, 'invalid_request_error', `must have required property '${property}'`, { code: 'schema_violation', param: property, path });

    beforeHandler(reference, async (req, reply) => {
      if (req.method !== 'POST') return;
      const body = req.body;
      if (!isObject(body)) return;
      const path = pathOf(req);
      if (path === '/api/v1/api_keys') {
        if (!('name' in body)) return violation(reply, 'name', 'name');
        return;
      }
      if (path !== '/api/v1/submissions') return;
      for (const field of SUBMISSION_FIELDS) {
        if (required.has(field) && !(field in body)) return violation(reply, field, field);
      }
      if (Array.isArray(body.rows)) {
        for (const [index, row] of body.rows.entries()) {
          if (isObject(row) && !('data' in row)) return violation(reply, 'data', `rows[${index}].data`);
        }
      }
    });
  },
});
