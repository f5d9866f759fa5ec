import { invalidParam } from '../reference/errors.js';
import { beforeHandler, pathOf } from '../mutants/support.js';
import { defineVariant } from './variant.js';

/**
 * Key names are unique among an account's live keys, and a name taken is an invalid value: 422
 * invalid_request_error naming `name` (conflict-409-duplicate-key-name makes the other choice).
 */
export default defineVariant({
  description: 'answers 422 invalid_request_error naming name to the creation of a key whose name a live key of the account already has',
  openPoint: 'key-name-uniqueness',
  atRisk: ['KEY-1', 'KEY-3', 'KEY-4', 'ERR-4'],
  modify: (reference) => {
    beforeHandler(reference, async (req, reply) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/api_keys') return;
      const name = (req.body as { name?: unknown } | null | undefined)?.name;
      if (typeof name !== 'string') return;
      const taken = [...req.account.keys.values()].some((k) => k.revokedAtMs === null && k.name === name);
      if (taken) return invalidParam(reply, 'name', `An API key named ${JSON.stringify(name)} already exists.`, 'name', 'taken');
    });
  },
});
