import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { beforeReference } from '../../../mutants/support.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the service runs behind Envoy (an Istio sidecar or gateway,
 * or a plain edge Envoy). Envoy's HTTP connection manager writes the `date` of every response
 * itself, overwriting the upstream's, from a per-thread cached string that a timer refreshes
 * every 500 ms (TlsCachingDateProviderImpl): formatting an HTTP-date on every response is avoided.
 * So `Date` lags the real time by up to half a second of cache plus the second that the
 * HTTP-date's whole-second resolution already truncates: it can read up to ~1.5 s behind the
 * instant the rate limiter read when it computed X-RateLimit-Reset, Retry-After and a key's
 * last-use time. nginx (ngx_cached_http_time), H2O, Jetty's DateCache and Undertow keep the same
 * kind of cache. Envoy also overwrites `server` with `envoy` and adds
 * `x-envoy-upstream-service-time` (milliseconds the upstream took), both on by default.
 *
 * Why it is conformant: a gateway acts as the origin server toward the client (RFC 9110 3.7), and
 * RFC 9110 6.6.1 asks an origin with a clock to send a Date (it does, on every response) whose
 * value is the best available approximation of the time of message generation (a SHOULD), at
 * one-second resolution, noting that in practice it can be generated at any time during the
 * message's origination; a cached value under a second old is the common reading of that. The value is
 * never ahead of the server's clock (the cache refreshes whenever that clock has moved on by
 * 500 ms, or stepped back), and it is read from the server's clock (`state.now`), so a server whose
 * clock is set apart stays consistent with its own Reset values. The document fixes nothing about Date; X-RateLimit-Reset
 * stays the Unix time the limiter computed, no more than one window ahead of the server's real
 * time, and Retry-After stays the seconds to wait. `server` and `x-envoy-upstream-service-time`
 * are fields HTTP allows any server to add (RFC 9110 10.2.4, 5.1); no status, body or documented
 * header changes.
 */

/** Envoy's refresh period of the cached date string. */
const REFRESH_MS = 500;

export default defineVariant({
  description:
    'sits behind Envoy, which stamps Date from a per-thread cached clock refreshed every 500 ms (up to ~1.5 s behind the moment the response was computed) and adds server: envoy and x-envoy-upstream-service-time',
  openPoint: 'http-transport',
  atRisk: ['RATE-2', 'RATE-3', 'RATE-4', 'RATE-5', 'RATE-7', 'RATE-8', 'KEY-1', 'KEY-5', 'KEY-7'],
  modify: (reference) => {
    const { app, state } = reference;
    // When the request arrived, by the raw request: Envoy measures the upstream's time from the
    // moment it forwards the request, before any hook of the service (authentication included).
    const arrived = new WeakMap<IncomingMessage, number>();
    beforeReference(reference, (req) => {
      arrived.set(req, performance.now());
    });
    /** The date string of the current thread's cache, and the server time it was formatted at. */
    let cached: { readonly atMs: number; readonly value: string } | null = null;
    const cachedDate = (): string => {
      const now = state.now();
      if (cached === null || now < cached.atMs || now - cached.atMs >= REFRESH_MS) {
        cached = { atMs: now, value: new Date(now).toUTCString() };
      }
      return cached.value;
    };
    app.addHook('onSend', async (req, reply, payload) => {
      // Registered after the reference's own Date hook, so this value is the one sent.
      reply.header('date', cachedDate());
      reply.header('server', 'envoy');
      const started = arrived.get(req.raw);
      if (started !== undefined) reply.header('x-envoy-upstream-service-time', String(Math.max(0, Math.round(performance.now() - started))));
      return payload;
    });
  },
});
