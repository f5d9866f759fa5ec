import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readReport } from '../support/cli.js';
import { SPARE_EVERYTHING, startHostile, startSlowHandshake, type HostileTarget } from '../hostile/server.js';
import { hasStackTrace, runAgainst } from '../hostile/run.js';
import { hasOpenssl, makePrivateCa, type PrivateCa } from './certificates.js';
import { startForwardProxy } from './forward-proxy.js';

// Real networks: an https target whose certificate a private CA signed (trusted through Node's
// NODE_EXTRA_CA_CERTS, as in a company network), and forward proxies named by HTTP_PROXY,
// HTTPS_PROXY and NO_PROXY. Each run is the CLI in a child process, with only GEN selected;
// TLS, the proxy tunnel and a slow handshake share one run, to keep the project's tests short.

const ARGS = ['--only', 'GEN'];
/** A TLS handshake slower than a LAN's, well within the request deadline. */
const HANDSHAKE_DELAY_MS = 300;

const ca: PrivateCa | null = hasOpenssl() ? makePrivateCa() : null;

describe.skipIf(!ca).concurrent('TLS with a private CA, and forward proxies', () => {
  let https: HostileTarget;

  beforeAll(async () => {
    https = await startHostile({ behaviour: 'never-answers', spare: SPARE_EVERYTHING, tls: { key: ca!.key, cert: ca!.cert } });
  });
  afterAll(async () => {
    await https?.close();
  });

  test('without the private CA the https target stops the run at the preflight: exit 2, one line naming TLS', async () => {
    const result = await runAgainst(https, ARGS);
    expect(result.exitCode).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^CONF_TARGET_UNREACHABLE: .* TLS failed \(.+\); a private CA goes in NODE_EXTRA_CA_CERTS$/);
    expect(hasStackTrace(result.stdout + result.stderr)).toBe(false);
  });

  test('HTTP_PROXY carries every request to an http target', async () => {
    const proxy = await startForwardProxy();
    const target = await startHostile({ behaviour: 'never-answers', spare: SPARE_EVERYTHING });
    try {
      const result = await runAgainst(target, ARGS, { HTTP_PROXY: proxy.url });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(proxy.seen.length).toBeGreaterThan(0);
      // Every request the target received came in on a connection the proxy opened.
      expect(target.requests.length).toBeGreaterThan(10);
      expect(target.requests.filter((r) => !proxy.upstreamPorts.has(r.remotePort))).toEqual([]);
    } finally {
      await proxy.close();
      await target.close();
    }
  });

  test(`an https target signed by a private CA, behind HTTPS_PROXY, with a handshake slowed by ${HANDSHAKE_DELAY_MS} ms: tunnelled with CONNECT, trusted through NODE_EXTRA_CA_CERTS`, async () => {
    const proxy = await startForwardProxy();
    const slow = await startSlowHandshake(https.url, HANDSHAKE_DELAY_MS);
    const before = https.requests.length;
    try {
      const result = await runAgainst({ ...https, url: slow.url }, ARGS, { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: ca!.caFile });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(readReport(result).verdict).toBe('conformant');
      // TLS end to end: the proxy saw only tunnels to the target, never a request in clear.
      expect(proxy.seen.length).toBeGreaterThan(0);
      expect(proxy.seen.every((p) => p.kind === 'connect' && p.target === new URL(slow.url).host)).toBe(true);
      expect(https.requests.length - before).toBeGreaterThan(10);
      // Every connection the target's front accepted came from the proxy.
      expect(slow.clientPorts.filter((port) => !proxy.upstreamPorts.has(port))).toEqual([]);
    } finally {
      await proxy.close();
      await slow.close();
    }
  });

  test('NO_PROXY naming the target bypasses the proxy', async () => {
    const proxy = await startForwardProxy();
    const target = await startHostile({ behaviour: 'never-answers', spare: SPARE_EVERYTHING });
    try {
      const result = await runAgainst(target, ARGS, { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(target.requests.length).toBeGreaterThan(10);
      expect(proxy.seen).toEqual([]);
    } finally {
      await proxy.close();
      await target.close();
    }
  });
});
