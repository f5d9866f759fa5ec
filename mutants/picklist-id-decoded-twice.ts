import { defineMutant } from './mutant.js';
import { beforeItem } from './support.js';

/**
 * The picklist retrieval passes its id through a helper written for query values, which decodes
 * it once more after the router has: an id holding a `%` (sent as `%25`) meets no percent-encoding
 * and the helper's URIError becomes a 500. The spelling of a missing id × the retrieval.
 */
export default defineMutant({
  description: 'a picklist id holding a percent sign is decoded a second time, and the URIError is answered 500 api_error instead of 404',
  breaks: { 'ERR-5': 'fail', 'GEN-3': 'warn' },
  modify: (reference) => {
    beforeItem(reference, 'picklist', 'GET', async (id) => {
      decodeURIComponent(id);
    });
  },
});
