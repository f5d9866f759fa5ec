import { defineMutant } from '../../mutant.js';
import { beforeReference } from '../../support.js';

/*
 * How this happens: the dedicated deployment sits behind an API gateway whose uptime monitor
 * probes the origin with HEAD requests. To let those probes through, the gateway has a rule that
 * attaches its own service key to keyless requests; the rule was meant to match
 * `HEAD /healthz` but was written as `method == HEAD`. Any HEAD request without an Authorization
 * header therefore reaches the API authenticated as the deployment's account, and GET answers
 * lose nothing but their body.
 */
export default defineMutant({
  description:
    "A HEAD request with no Authorization header is forwarded with the gateway's service key, so it gets the same 200 (and headers) as an authenticated GET instead of 401.",
  breaks: { 'AUTH-1': 'fail' },
  collateral: ['AUTH-7', 'RATE-7'],
  modify: (reference) => {
    const { store } = reference.state;
    const account = store.accounts[0]!;
    // The gateway's service key: a key of the deployment's account that no key list shows.
    const service = store.createKey(account, 'gateway health probe');
    account.keys.delete(service.record.id);
    beforeReference(reference, (req) => {
      if (req.method !== 'HEAD' || req.headers.authorization !== undefined) return;
      req.headers.authorization = `Bearer ${service.secret}`;
    });
  },
});
