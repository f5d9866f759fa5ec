import { APACHE, reason as apache, startApache } from './apache.js';
import { CADDY, reason as caddy, startCaddy } from './caddy.js';
import { HAPROXY, reason as haproxy, startHaproxy } from './haproxy.js';
import { LIGHTTPD, reason as lighttpd, startLighttpd } from './lighttpd.js';
import { VARNISHD, reason as varnish, startVarnish } from './varnish.js';

export type { RunningFrontEnd } from './process.js';

/** The real front ends a test can put in front of a server, by name. nginx's launcher (nginx.ts) serves test/network/behind-nginx.test.ts, which holds it to more. */
export const FRONT_ENDS = {
  apache: { binary: APACHE, start: startApache, reason: apache },
  haproxy: { binary: HAPROXY, start: startHaproxy, reason: haproxy },
  caddy: { binary: CADDY, start: startCaddy, reason: caddy },
  lighttpd: { binary: LIGHTTPD, start: startLighttpd, reason: lighttpd },
  varnish: { binary: VARNISHD, start: startVarnish, reason: varnish },
} as const;

export type FrontEndName = keyof typeof FRONT_ENDS;

/**
 * The rate window of a reference behind a real front end, in real time: RATE-3's burst must fit some
 * two hundred requests through the front end in one window. At 1 s, on two loaded cores with the
 * stacks' runs beside each other and the matrices, HAProxy's run once fell short of it (RATE-3
 * skipped, "the target answered too slowly to reach the ceiling": an honest verdict, not the test's).
 */
export const FRONT_END_WINDOW_SECONDS = 3;
