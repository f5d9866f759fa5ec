import { defineMutant } from '../../mutant.js';
import { beforeReference } from '../../support.js';

/*
 * How this happens: "to be ready for v2", the API gateway's route was written as a pattern,
 * `location ~ ^/api/v[0-9]+/ { rewrite ^/api/v[0-9]+/(.*)$ /api/v1/$1 break; proxy_pass ...; }`,
 * forwarding every version prefix to the only backend there is. Until a v2 exists, a client that
 * asks for /api/v2/records (or /api/v0/, /api/v17/) is silently served v1 instead of being told the
 * path does not exist.
 */
export default defineMutant({
  description:
    'Any /api/vN/ prefix is rewritten to /api/v1/ in front of the service, so an endpoint requested under /api/v2/ is served as v1 (200) instead of 404.',
  breaks: { 'GEN-2': 'warn' },
  collateral: [],
  modify: (reference) => {
    beforeReference(reference, (req) => {
      if (req.url) req.url = req.url.replace(/^\/api\/v[0-9]+\//, '/api/v1/');
    });
  },
});
