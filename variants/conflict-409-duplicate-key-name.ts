import { onTakenKeyName } from '../mutants/support.js';
import { defineVariant } from './variant.js';

/**
 * Key names are unique among an account's live keys: creating a key with a name a live key already
 * has is 409 conflict_error (the status of conflict_error is not shown; it applies to writes).
 */
export default defineVariant({
  description: 'answers 409 conflict_error to the creation of a key whose name a live key of the account already has',
  openPoint: 'error-statuses',
  atRisk: ['ERR-1', 'ERR-2', 'ERR-6', 'KEY-1', 'KEY-2', 'KEY-3', 'KEY-5', 'KEY-6', 'KEY-7', 'AUTH-3'],
  modify: (reference) => {
    onTakenKeyName(reference, async (name, reply) => {
      await reply.code(409).send({
        error: {
          type: 'conflict_error',
          code: 'duplicate_name',
          message: `An API key named ${JSON.stringify(name)} already exists.`,
          param: 'name',
          path: 'name',
        },
      });
    });
  },
});
