import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from '../support/cli.js';

// RATE-7's per-IP budget must not count an address the client names (X-Forwarded-For): a client
// naming another address in each request would escape it. But an application server believes that
// header from an address it trusts as its own front end's, and common defaults trust the address a
// local or private run comes from (uvicorn: 127.0.0.1; Rails: every private address): there it is a
// deployment's right reading, and the suite does not judge it (src/http/trusted-peer.ts). So the
// fault is shown where the suite reaches the target from an address no default trusts: a test host
// in a network namespace of this test's own, at a documentation address (RFC 5737) on the
// namespace's loopback interface, which nothing leaves. The kill matrix, on loopback, leaves this mutant to this test.

const HOST = '198.51.100.7';
const NAMESPACE = `conformance-${process.pid}`;

const ROOTLESS = process.getuid?.() !== 0;
const IP = ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip'].find((path) => existsSync(path));
const MISSING = ROOTLESS ? 'not root: a network namespace needs CAP_NET_ADMIN' : IP === undefined ? 'ip (iproute2) is missing: .ci/run installs it' : null;
// In CI a missing prerequisite fails the test; on a developer's machine it is skipped with the reason.
const SKIP = MISSING !== null && !process.env.CI;

const ip = (...args: string[]) => execFileSync(IP!, args, { stdio: ['ignore', 'pipe', 'pipe'] });

beforeAll(() => {
  if (SKIP) return;
  if (MISSING) throw new Error(MISSING);
  ip('netns', 'add', NAMESPACE);
  // On the namespace's own loopback interface: the address is local, and a connection to it comes from it.
  ip('-n', NAMESPACE, 'addr', 'add', `${HOST}/32`, 'dev', 'lo');
  ip('-n', NAMESPACE, 'link', 'set', 'lo', 'up');
});

afterAll(() => {
  if (!SKIP && !MISSING) ip('netns', 'del', NAMESPACE);
});

interface NamespacedRun {
  readonly exitCode: number;
  readonly clauses: readonly { id: string; status: string; reason: string | null }[];
}

/** A kill-matrix run inside the namespace, the reference (or the mutant) served at HOST. */
function runInNamespace(name: string): Promise<NamespacedRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(IP!, ['netns', 'exec', NAMESPACE, process.execPath, '--import', 'tsx', join(ROOT, 'test/support/in-namespace-kill.ts'), name, HOST], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as NamespacedRun);
      } catch {
        reject(new Error(`the run in the namespace exited ${code}: ${(err || out).slice(-2000)}`));
      }
    });
  });
}

describe.skipIf(SKIP)(`from an address no default trusts as a front end's${SKIP ? ` (skipped: ${MISSING})` : ''}`, { concurrent: true }, () => {
  test('rate-ip-from-forwarded-for is caught on RATE-7: its per-IP budget counts the address X-Forwarded-For names', async () => {
    const run = await runInNamespace('rate-ip-from-forwarded-for');
    const rate7 = run.clauses.find((c) => c.id === 'RATE-7');
    expect(rate7?.status, JSON.stringify(rate7)).toBe('fail');
    expect(rate7?.reason).toMatch(/carrying X-Forwarded-For: another address .* the budget counts an address the client names/);
    expect(run.exitCode).toBe(1);
  });

  test('the reference there passes RATE-7: the finding is the fault, not the address', async () => {
    const run = await runInNamespace('reference');
    expect(run.clauses.filter((c) => c.status === 'fail' || c.status === 'error')).toEqual([]);
    expect(run.clauses.find((c) => c.id === 'RATE-7')?.status).toBe('pass');
    expect(run.exitCode).toBe(0);
  });
});
