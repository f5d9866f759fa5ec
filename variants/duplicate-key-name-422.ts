import { invalidParam } from '../reference/errors.js';
import { onTakenKeyName } from '../mutants/support.js';
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
    onTakenKeyName(reference, async (name, reply) => invalidParam(reply, 'name', `An API key named ${JSON.stringify(name)} already exists.`, 'name', 'taken'));
  },
});
