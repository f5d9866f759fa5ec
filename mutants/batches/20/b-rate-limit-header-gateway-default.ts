import { defineMutant } from '../../mutant.js';

/*
 * How this happens: while v2 was being built, the X-RateLimit-* headers were moved out of the v1
 * service into a response filter of the API gateway that v1 and v2 now share. The filter reads the
 * ceiling from the gateway's own `RATE_LIMIT_PER_MINUTE`, whose default is v2's 1000; the v1 service
 * keeps enforcing its own 100 per key. Staging overrides both settings to the same value, so only
 * production advertises a ceiling ten times the one it enforces.
 */
export default defineMutant({
  description:
    'Responses to requests with an API key advertise X-RateLimit-Limit: 1000 (the shared gateway default) while the service enforces, and counts Remaining against, 100 a minute per key.',
  breaks: { 'RATE-2': 'fail' },
  collateral: [],
  modify: (reference) => {
    const perKey = reference.state.profile.limits.perKeyPerMinute;
    const enforced = String(perKey);
    const advertised = String(Math.max(1000, perKey * 10));
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.headers.authorization !== undefined && String(reply.getHeader('x-ratelimit-limit') ?? '') === enforced) {
        reply.header('x-ratelimit-limit', advertised);
      }
      return payload;
    });
  },
});
