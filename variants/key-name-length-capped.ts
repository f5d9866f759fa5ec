import { invalidParam } from '../reference/errors.js';
import { beforeHandler, pathOf } from '../mutants/support.js';
import { defineVariant } from './variant.js';

/**
 * Key names are stored in a VARCHAR(255) column and longer ones are refused at creation, with 422
 * naming `name` (the document sets no length for a name; refusing is how a careful implementer
 * keeps a name whole).
 */
export default defineVariant({
  description: 'refuses a key name longer than 255 characters with 422 invalid_request_error naming name',
  openPoint: 'input-lengths',
  atRisk: ['KEY-1', 'KEY-3', 'ERR-4'],
  modify: (reference) => {
    beforeHandler(reference, async (req, reply) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/api_keys') return;
      const name = (req.body as { name?: unknown } | null | undefined)?.name;
      if (typeof name === 'string' && name.length > 255) return invalidParam(reply, 'name', 'name is at most 255 characters long.', 'name', 'too_long');
    });
  },
});
