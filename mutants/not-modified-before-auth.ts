import { defineMutant } from './mutant.js';
import { beforeReference } from './support.js';

/**
 * A conditional GET answered from a cache of ETags kept by URL, in front of authentication: a
 * request with If-None-Match on a URL the cache holds is answered 304 whoever sends it, with no key,
 * a malformed header or an unknown key alike. Written from a fault of a hidden batch (a credential
 * state crossed with a request header): the header catalogue sends conditions with a live key only,
 * the credential probes send none.
 */
export default defineMutant({
  description: 'answers a GET with If-None-Match 304 Not Modified before it authenticates the request',
  breaks: { 'AUTH-1': 'fail', 'AUTH-2': 'fail', 'AUTH-3': 'fail' },
  // A 304 to another account's object, asked with a live key, is served as well.
  collateral: ['AUTH-6'],
  modify: (reference) => {
    beforeReference(reference, (req) => {
      if (req.method !== 'GET' || !req.url?.startsWith('/api/v1/') || req.headers['if-none-match'] === undefined) return;
      // Served here, before the API's authentication: the cache holds every URL of the API.
      req.url = '/__etag_cache__';
    });
    reference.app.get('/__etag_cache__', async (_req, reply) => reply.code(304).send());
  },
});
