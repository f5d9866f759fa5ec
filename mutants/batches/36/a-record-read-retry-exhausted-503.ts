import { itemPrefix, pathOf } from '../../support.js';
import { errorBody } from '../../../reference/errors.js';
import { defineMutant } from '../../mutant.js';

/*
 * How this happens: record reads move to a read replica, and right after a record is written the
 * replica sometimes does not have it yet, so customers saw 404s for records they had just created.
 * The team wraps record retrieval in the new retry helper of the retry-safety layer: try the
 * replica, retry twice with back-off, then once on the primary behind its circuit breaker. The
 * helper retries on any failed lookup, a not-found included, and when every attempt has failed it
 * throws RetriesExhaustedError with the last failure as its cause. The error mapper knows
 * NotFoundError but not the wrapper, and maps the wrapper as it maps an open breaker: 503
 * `api_error`, "temporarily unavailable". The replication-lag test (a record that appears on the
 * second attempt) passes; a record that does not exist at all is never tried. The 503s are a thin
 * slice of traffic, and the on-call reading them sees the breaker's message and blames the primary.
 */
export default defineMutant({
  description:
    'Retrieving a record that does not exist answers 503 api_error "temporarily unavailable" after the read retries are exhausted, instead of 404 not_found_error.',
  breaks: { 'ERR-5': 'fail', 'GEN-3': 'warn' },
  collateral: ['AUTH-6'],
  modify: (reference) => {
    const prefix = itemPrefix(reference.state.profile.paths.record);
    if (!prefix) return;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || reply.statusCode !== 404) return payload;
      const path = pathOf(req);
      if (!path.startsWith(prefix) || path.length === prefix.length || path.slice(prefix.length).includes('/')) return payload;
      reply.code(503);
      return JSON.stringify(errorBody('api_error', 'The record service is temporarily unavailable. Please retry later.', { code: 'service_unavailable' }));
    });
  },
});
