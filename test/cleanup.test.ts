import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { referenceProfile, startReference, type ReferenceApp, type RunningReference } from '../reference/server.js';
import { variantNamed } from '../variants/index.js';
import { DIRECT_RUN, ROOT } from './support/cli.js';
import { liveRunKeys } from './support/live-keys.js';
import { describeCleanup } from '../src/run/cleanup.js';
import type { LedgerEntry } from '../src/broker/ledger.js';

// Issue 5: a run never leaves a key it created behind, even when it is stopped halfway.

const BIN = join(ROOT, 'bin/conformance.mjs');

/**
 * A reference whose key deletions hang while `hold` is on, so that a run can be caught with
 * keys outstanding. Released deletions are answered 503 without deleting: only requests sent
 * after the release delete anything.
 */
async function stallingReference(): Promise<{ target: RunningReference; app: ReferenceApp; stalled: () => number; release: () => void }> {
  let app: ReferenceApp | null = null;
  let holding = true;
  const waiting: (() => void)[] = [];
  const target = await startReference({
    windowSeconds: 1,
    modify: (reference) => {
      app = reference;
      reference.app.addHook('preHandler', async (req, reply) => {
        if (!holding || req.method !== 'DELETE') return;
        await new Promise<void>((resolve) => waiting.push(resolve));
        await reply.code(503).send({ error: { type: 'api_error', code: null, message: 'Unavailable.', param: null, path: null } });
      });
    },
  });
  return {
    target,
    app: app!,
    stalled: () => waiting.length,
    release: () => {
      holding = false;
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

/** Keys of the main account the suite made (by its naming) that still work. */
function liveSuiteKeys(app: ReferenceApp): string[] {
  return liveRunKeys(app.state.store.accounts.slice(0, 1));
}

function spawnCli(
  args: readonly string[],
  env: Record<string, string>,
  cwd: string,
): { child: ChildProcess; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> } {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CONFORMANCE_') && !name.startsWith('VITEST')));
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...clean, ...DIRECT_RUN, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('cleanup of created keys', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  async function startRunCaughtHalfway() {
    const ref = await stallingReference();
    closers.push(async () => {
      ref.release();
      await ref.target.close();
    });
    const cwd = mkdtempSync(join(tmpdir(), 'conformance-cleanup-'));
    const profile = join(cwd, 'profile.json');
    writeFileSync(profile, JSON.stringify(ref.target.profile));
    const reportDir = join(cwd, 'reports');
    const env = { CONFORMANCE_BASE_URL: ref.target.url, CONFORMANCE_API_KEY: ref.target.keys.main, CONFORMANCE_OTHER_ACCOUNT_API_KEY: ref.target.keys.other };
    const run = spawnCli(['--profile', profile, '--report-dir', reportDir, '--only', 'KEY'], env, cwd);
    closers.push(async () => void run.child.kill('SIGKILL'));
    await until(() => ref.stalled() > 0, 120_000, 'the run to create a key and try to delete it');
    expect(liveSuiteKeys(ref.app).length).toBeGreaterThan(0);
    return { ref, cwd, profile, reportDir, env, run };
  }

  test('a run killed halfway leaves no key behind after `cleanup`', async () => {
    const { ref, cwd, profile, reportDir, env, run } = await startRunCaughtHalfway();
    run.child.kill('SIGKILL');
    await run.done;
    ref.release();
    const left = liveSuiteKeys(ref.app);
    expect(left.length).toBeGreaterThan(0);
    const ledger = readFileSync(join(reportDir, 'ledger.jsonl'), 'utf8');
    for (const name of left) expect(ledger).toContain(name);

    const cleanup = spawnCli(['cleanup', '--profile', profile, '--report-dir', reportDir], env, cwd);
    const result = await cleanup.done;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    for (const name of left) expect(result.stdout).toContain(name);
    expect(liveSuiteKeys(ref.app)).toEqual([]);
    // The configured keys are never touched.
    expect([...ref.app.state.store.accounts[0]!.keys.values()].find((k) => k.name === 'owner key')?.revokedAtMs).toBeNull();

    const again = await spawnCli(['cleanup', '--profile', profile, '--report-dir', reportDir], env, cwd).done;
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to delete');
  });

  test('Ctrl-C stops the run, deletes the keys it created and exits 130', async () => {
    const { ref, reportDir, run } = await startRunCaughtHalfway();
    run.child.kill('SIGINT');
    ref.release();
    const result = await run.done;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('interrupted');
    expect(liveSuiteKeys(ref.app)).toEqual([]);
    expect(existsSync(join(reportDir, 'ledger.jsonl'))).toBe(true);
  });
});

describe('cleanup at a key path given then (--key-path)', () => {
  test('deletes the keys a ledger lists at a key path the profile does not declare', async () => {
    const variant = variantNamed('key-paths-unconventional-undeclared');
    let app: ReferenceApp | null = null;
    const target = await startReference({
      windowSeconds: 1,
      profile: variant.profile!(referenceProfile()),
      modify: (reference) => {
        app = reference;
        variant.modify!(reference);
      },
    });
    try {
      const cwd = mkdtempSync(join(tmpdir(), 'conformance-key-path-'));
      const profile = join(cwd, 'profile.json');
      writeFileSync(profile, JSON.stringify(target.profile));
      const reportDir = join(cwd, 'reports');
      const env = { CONFORMANCE_BASE_URL: target.url, CONFORMANCE_API_KEY: target.keys.main };
      // --leave-keys: keys are created though the run knows no way to delete them.
      const run = await spawnCli(['--profile', profile, '--report-dir', reportDir, '--only', 'KEY-1', '--leave-keys'], env, cwd).done;
      const left = liveSuiteKeys(app!);
      expect(left.length, run.stdout).toBeGreaterThan(0);

      const without = await spawnCli(['cleanup', '--profile', profile, '--report-dir', reportDir], env, cwd).done;
      expect(without.code).toBe(1);
      expect(liveSuiteKeys(app!)).toEqual(left);

      const given = await spawnCli(['cleanup', '--profile', profile, '--report-dir', reportDir, '--key-path', '/api/v1/keys/{id}'], env, cwd).done;
      expect(given.stderr).toBe('');
      expect(given.code).toBe(0);
      for (const name of left) expect(given.stdout).toContain(name);
      expect(liveSuiteKeys(app!)).toEqual([]);
    } finally {
      await target.close();
    }
  }, 120_000);

  test('refuses a key path outside /api/v1/ or without {id}', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'conformance-key-path-'));
    const env = { CONFORMANCE_BASE_URL: 'http://127.0.0.1:9', CONFORMANCE_API_KEY: 'sk_test_0123456789' };
    const result = await spawnCli(['cleanup', '--key-path', '/keys/{id}'], env, cwd).done;
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--key-path must be a path under /api/v1/');
  });
});

test('the cleanup line names three deleted keys and counts the rest, but names every key left on the target', () => {
  const entry = (n: number): LedgerEntry => ({
    event: 'created',
    kind: 'api_key',
    id: `key_${n}`,
    name: `conformance-run-pool-${n}`,
    runId: 'run',
    baseUrl: 'http://x',
    at: '',
  });
  const deleted = Array.from({ length: 22 }, (_, n) => entry(n));
  const left = [entry(100), entry(101)].map((e) => ({ entry: e, reason: 'refused' }));
  const line = describeCleanup({ deleted, leftBehind: left });
  expect(line).toMatch(/^deleted 22 key\(s\) the suite created \(.*pool-0.*pool-1.*pool-2 \[key_2\] and 19 more, each in the ledger\)/);
  expect(line).not.toMatch(/pool-3\b/);
  expect(line).toMatch(/2 key\(s\) LEFT ON THE TARGET: conformance-run-pool-100 \[key_100\], conformance-run-pool-101 \[key_101\] \(refused\)/);
});

describe('a key whose creation was never answered, when the target no longer answers', () => {
  test('is left behind, named, not taken for never created: an unread key list shows nothing either way', async () => {
    const { deleteKeys } = await import('../src/run/cleanup.js');
    const { HttpClient } = await import('../src/http/client.js');
    const { Ledger, UNKNOWN_ID } = await import('../src/broker/ledger.js');
    // Port 9 (discard) refuses on loopback: the key list, like every request, gets no answer.
    const http = new HttpClient({
      baseUrl: 'http://127.0.0.1:9',
      keys: { main: 'k', other: null },
      extraHeaders: [],
      timeoutMs: 800,
      retryUnanswered: false,
      hooks: { acquire: async () => {}, record: async () => {} },
    });
    const ledger = new Ledger(null);
    const announced: LedgerEntry = {
      event: 'creating',
      kind: 'api_key',
      id: UNKNOWN_ID,
      name: 'conformance-run-rate-limits',
      runId: 'run',
      baseUrl: 'http://127.0.0.1:9',
      at: new Date().toISOString(),
    };
    ledger.add(announced);
    const result = await deleteKeys(http, ledger, referenceProfile(), [announced]);
    expect(result.notCreated).toBe(0);
    expect(result.leftBehind.map((l) => l.reason)).toEqual(['its creation was never answered, and the key list could not be read to find it']);
    expect(ledger.entries.filter((e) => e.event === 'not_created')).toEqual([]);
  });
});
