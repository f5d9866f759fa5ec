import { randomBytes } from 'node:crypto';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the API runs as three replicas (EC2 instances, or pods on three
 * nodes) behind an AWS Application Load Balancer with load-balancer-generated cookie stickiness
 * (`stickiness.type = lb_cookie`, `stickiness.lb_cookie.duration_seconds = 86400`): every response
 * carries the ALB's `AWSALB` cookie and its `AWSALBCORS` twin (`SameSite=None; Secure`), and a
 * client that sends the cookie back is routed to the same target; a client that keeps no cookies
 * (most API clients) is spread round-robin. The replicas share one Redis for the rate counters: the
 * limiter is a Lua script that reads the time with Redis `TIME`, so the window, its end
 * (`X-RateLimit-Reset`) and the wait (`Retry-After`, from the key's `PTTL`) are on the store's one
 * clock whichever replica answers. What each replica writes from its own clock is the HTTP `Date`
 * header (Node's http server stamps it from the host's time), and host clocks are never exactly
 * together: chrony keeps synced hosts within milliseconds, but a host whose time sync has quietly
 * stopped (chronyd not restarted after an image change, NTP egress blocked by a new security group
 * or network policy) drifts at the oscillator's tens of ppm, hundreds of milliseconds a day, until
 * someone notices; and after a live migration a host is off by a few hundred milliseconds until
 * chrony slews it back (it steps only at boot, `makestep 1 3`). Here replica 0 is on the store's
 * time and replicas 1 and 2 lag it by 0.4 s and 0.9 s, so a cookie-less client sees `Date` go back
 * by a second now and then between consecutive responses. Each instance also says which it is (`X-Instance-Id`, the EC2 instance id), as teams
 * add for debugging behind a balancer.
 *
 * Why it is conformant:
 * - Limits: the document gives `X-RateLimit-Reset` as "Unix time when the window resets" and says
 *   nothing of whose clock (open point `server-clock`); here it is the shared store's, and every
 *   replica reports the same value for a window, so it is never more than one window ahead of the
 *   store's time (RATE-2). `Retry-After` and the 429 message are computed from the same store
 *   (the key's remaining TTL), so the message's number equals `Retry-After` (RATE-3, RATE-4) and a
 *   client that waits that long finds a fresh window (RATE-5). Counting is unchanged: one atomic
 *   counter per key and per IP address in the store, 100 and 20 per window (RATE-6, RATE-7,
 *   RATE-8). No replica runs ahead of the store: a client that reads the server's time from `Date`
 *   therefore never believes the window ends earlier than it does; it may only wait up to a second
 *   longer than needed. `Reset` stays within RATE-2's "few seconds of clock skew" of every `Date`.
 * - `Date` is HTTP's (RFC 9110 6.6.1: the origin's time when the message was generated, from its
 *   own clock); the API document says nothing of it, and no clause fixes it.
 * - The cookies, `X-Instance-Id` and the routing are the transport (open point `http-transport`):
 *   the document asks only that responses be JSON (GEN-1), which they stay, bodies unchanged.
 *   Authentication is by the Authorization header only, on every replica alike; a cookie changes
 *   where a request goes, never who it is from (AUTH-1..3). The cookie values are opaque random
 *   values fixed per replica, never derived from a key, so no response carries a part of a secret
 *   (KEY-4).
 * - Times the API itself writes (a key's last use and creation, a submission's creation) come from
 *   the shared database's clock, as in the reference (`now()` in the UPDATE), so the last-use time
 *   still moves forward with every use (KEY-7).
 */

/** How far each replica's clock lags the store's (ms): none runs ahead of it. */
const REPLICA_LAG_MS = [0, 400, 900] as const;
/** `stickiness.lb_cookie.duration_seconds`, the ALB's default of one day. */
const STICKINESS_MS = 86_400_000;

export default defineVariant({
  description:
    'three replicas behind an ALB with cookie stickiness: Date comes from the answering replica, whose clock lags the shared rate store by up to 0.9 s, so Date may step back between cookie-less requests; Reset and Retry-After come from the store; AWSALB cookies and X-Instance-Id on every response',
  openPoint: 'server-clock',
  atRisk: ['RATE-2', 'RATE-3', 'RATE-5', 'RATE-8', 'RATE-7', 'KEY-4', 'GEN-1'],
  rateLimits: true,
  modify: ({ app, state }) => {
    const replicas = REPLICA_LAG_MS.map((lagMs) => ({
      lagMs,
      // The ALB's cookie is an encrypted blob of the target, in base64; here an opaque value per target.
      cookie: randomBytes(96).toString('base64'),
      instanceId: `i-0${randomBytes(8).toString('hex').slice(0, 16)}`,
    }));
    const byCookie = new Map(replicas.map((replica, index) => [replica.cookie, index]));
    let next = 0;

    const pinned = (header: string | undefined): number | undefined => {
      if (!header) return undefined;
      for (const part of header.split(';')) {
        const at = part.indexOf('=');
        if (at < 0 || part.slice(0, at).trim() !== 'AWSALB') continue;
        const index = byCookie.get(part.slice(at + 1).trim());
        if (index !== undefined) return index;
      }
      return undefined;
    };

    // After the reference's own onSend (which writes Date from the store's clock): the replica's.
    app.addHook('onSend', async (req, reply, payload) => {
      const index = pinned(req.headers.cookie) ?? next++ % replicas.length;
      const replica = replicas[index]!;
      const now = state.now();
      reply.header('date', new Date(now - replica.lagMs).toUTCString());
      reply.header('x-instance-id', replica.instanceId);
      // The balancer stamps its cookie's expiry from its own clock (on the store's time here).
      const expires = new Date(now + STICKINESS_MS).toUTCString();
      reply.header('set-cookie', [
        `AWSALB=${replica.cookie}; Expires=${expires}; Path=/`,
        `AWSALBCORS=${replica.cookie}; Expires=${expires}; Path=/; SameSite=None; Secure`,
      ]);
      return payload;
    });
  },
});
