import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { startFrontEnd, upstreamAddress, type RunningFrontEnd } from './process.js';

/** Debian's Varnish Cache (package `varnish`). */
export const VARNISHD = '/usr/sbin/varnishd';

export const reason = 'Varnish Cache 7 with the builtin VCL: the HTTP cache put in front of read-heavy APIs';

/**
 * Starts varnishd as a caching reverse proxy in front of `upstream` (an http URL) on a free
 * loopback port, with `-b` (hence the builtin VCL: Debian's default.vcl only names a backend) and
 * the storage of Debian's unit (malloc, 256m). Its working folder (shared memory log, compiled
 * VCL) is inside the temporary folder. It keeps no access log: that is varnishncsa's job.
 */
export function startVarnish(upstream: string): Promise<RunningFrontEnd> {
  const backend = upstreamAddress('startVarnish', upstream).hostPort;
  return startFrontEnd({
    name: 'Varnish',
    binary: VARNISHD,
    accessLog: null,
    errorLog: 'stderr.log',
    prepare(dir, port) {
      // Started as root, varnishd compiles the VCL as the unprivileged varnish user in a working
      // folder it creates and hands over itself: it must not exist yet, and its parent must let them in.
      chmodSync(dir, 0o711);
      return {
        // -F: stay in the foreground. -T none: no management port, which nothing here uses.
        args: ['-F', '-a', `127.0.0.1:${port}`, '-b', backend, '-n', join(dir, 'varnish'), '-s', 'malloc,256m', '-T', 'none'],
      };
    },
  });
}
