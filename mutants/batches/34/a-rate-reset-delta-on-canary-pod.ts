import { defineMutant } from '../../mutant.js';

/** Pods behind the load balancer; one of them runs the canary build. */
const PODS = 4;

/*
 * How this happens: the team replaces its home-grown limiter with a library that implements the
 * IETF RateLimit header draft, where the reset value is delta-seconds ("the window resets in 37
 * seconds"), not a Unix time. The adapter that writes the legacy X-RateLimit-* headers passes the
 * library's reset value straight through. The build is canaried on one pod of four behind an L7
 * load balancer that round-robins requests, so one response in four carries X-RateLimit-Reset as
 * a small number of seconds to wait, while the other three still send the Unix time. Dashboards
 * show no error rate change (the limiter counts correctly, Retry-After is right), so the canary is
 * promoted by its health checks.
 */
export default defineMutant({
  description: 'On the canary pod (one request in four, round robin) X-RateLimit-Reset is sent as seconds until the window resets instead of a Unix time.',
  breaks: { 'RATE-2': 'fail' },
  collateral: ['RATE-5'],
  modify: (reference) => {
    const { state } = reference;
    let served = 0;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (!req.url.startsWith('/api/')) return payload;
      served++;
      // The balancer's turn: every fourth request lands on the canary pod.
      if (served % PODS !== 0) return payload;
      const reset = Number(reply.getHeader('x-ratelimit-reset'));
      if (!Number.isInteger(reset)) return payload;
      reply.header('x-ratelimit-reset', String(Math.max(0, reset - Math.floor(state.now() / 1000))));
      return payload;
    });
  },
});
