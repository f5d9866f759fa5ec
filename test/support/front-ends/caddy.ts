import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFrontEnd, upstreamAddress, type RunningFrontEnd } from './process.js';

/** Debian's Caddy (package `caddy`). */
export const CADDY = '/usr/bin/caddy';

export const reason = 'Caddy 2 with reverse_proxy: the front end of small deployments that want HTTPS without effort';

/**
 * Starts Caddy as a reverse proxy in front of `upstream` (an http URL) on a free loopback port: a
 * Caddyfile with one site whose only directives are `reverse_proxy` and an access log. Automatic
 * HTTPS and the admin endpoint are off (neither has anything to do on a loopback port, and the
 * admin endpoint would take the fixed port 2019); Caddy's data and config folders and HOME are
 * the temporary folder, so that it writes nothing elsewhere.
 */
export function startCaddy(upstream: string): Promise<RunningFrontEnd> {
  const target = upstreamAddress('startCaddy', upstream).hostPort;
  return startFrontEnd({
    name: 'Caddy',
    binary: CADDY,
    accessLog: 'access.log',
    errorLog: 'error.log',
    prepare(dir, port) {
      for (const sub of ['data', 'config']) mkdirSync(join(dir, sub), { recursive: true });
      writeFileSync(join(dir, 'Caddyfile'), config(dir, port, target));
      return {
        args: ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'],
        env: { HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') },
      };
    },
  });
}

function config(dir: string, port: number, target: string): string {
  return `# Written by test/support/front-ends/caddy.ts
{
	admin off
	auto_https off
	log {
		output file ${join(dir, 'error.log')}
	}
}

http://:${port} {
	bind 127.0.0.1
	log {
		output file ${join(dir, 'access.log')}
	}
	reverse_proxy ${target}
}
`;
}
