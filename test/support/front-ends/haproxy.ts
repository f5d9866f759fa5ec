import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFrontEnd, upstreamAddress, type RunningFrontEnd } from './process.js';

/** Debian's HAProxy (package `haproxy`). */
export const HAPROXY = '/usr/sbin/haproxy';

export const reason = 'HAProxy 2.6 in mode http: the load balancer in front of many high-traffic APIs';

/**
 * Starts HAProxy as a reverse proxy in front of `upstream` (an http URL) on a free loopback port:
 * the defaults section of Debian's /etc/haproxy/haproxy.cfg (its timeouts and error files), one
 * frontend and one backend. Its global section loses what touches the system: chroot, the stats
 * socket in /run, the switch to the haproxy user, daemon mode, syslog (it logs to stdout instead).
 */
export function startHaproxy(upstream: string): Promise<RunningFrontEnd> {
  const server = upstreamAddress('startHaproxy', upstream).hostPort;
  return startFrontEnd({
    name: 'HAProxy',
    binary: HAPROXY,
    // `log stdout` writes the request lines to stdout; alerts and warnings go to stderr.
    accessLog: 'stdout.log',
    errorLog: 'stderr.log',
    prepare(dir, port) {
      writeFileSync(join(dir, 'haproxy.cfg'), config(port, server));
      // -db: stay in the foreground.
      return { args: ['-db', '-f', join(dir, 'haproxy.cfg'), '-p', join(dir, 'haproxy.pid')] };
    },
  });
}

function config(port: number, server: string): string {
  const errorfiles = [400, 403, 408, 500, 502, 503, 504]
    .map((status) => `/etc/haproxy/errors/${status}.http`)
    .filter((file) => existsSync(file))
    .map((file) => `\terrorfile ${file.match(/(\d+)\.http$/)![1]} ${file}`)
    .join('\n');
  return `# Written by test/support/front-ends/haproxy.ts
global
\tlog stdout format raw local0

defaults
\tlog\tglobal
\tmode\thttp
\toption\thttplog
\toption\tdontlognull
\ttimeout connect 5000
\ttimeout client  50000
\ttimeout server  50000
${errorfiles}

frontend api
\tbind 127.0.0.1:${port}
\tdefault_backend api

backend api
\tserver upstream ${server}
`;
}
