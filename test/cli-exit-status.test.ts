import { describe, expect, test } from 'vitest';
import { startReference } from '../reference/server.js';
import { runCli } from './support/cli.js';

// The run interface: a wrong setting or an unreachable target is one line and exit 2, no stack trace,
// from the process itself (runCli's `process: true`).
const PROCESS = { process: true } as const;
const oneLine = (text: string) => text.trim().split('\n').length === 1 && !/\n\s+at /.test(text);

describe.concurrent('exit status', () => {
  test('a key that does not authenticate is exit 2 with one line', async () => {
    const reference = await startReference();
    try {
      const run = await runCli([], { CONFORMANCE_BASE_URL: reference.url, CONFORMANCE_API_KEY: 'sk_not_a_real_key_at_all_000000000' }, PROCESS);
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toMatch(/^CONF_KEY_REJECTED: /);
      expect(oneLine(run.stderr)).toBe(true);
      expect(run.stderr).not.toContain('sk_not_a_real_key');
    } finally {
      await reference.close();
    }
  });

  test('an unreachable target is exit 2 with one line', async () => {
    const run = await runCli([], { CONFORMANCE_BASE_URL: 'http://127.0.0.1:9', CONFORMANCE_API_KEY: 'sk_unreachable_key' }, PROCESS);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/^CONF_TARGET_UNREACHABLE: .*connection refused/);
    expect(oneLine(run.stderr)).toBe(true);
  });

  test.each([
    [['--only', 'NOPE'], {}],
    [['--profile', '/no/such/file.json'], {}],
    [[], { CONFORMANCE_BASE_URL: 'https://api.example.test' }],
  ])('a wrong setting %j is exit 2 with one line', async (args, env) => {
    const run = await runCli(args, env, PROCESS);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/^CONF_[A-Z_]+: /);
    expect(oneLine(run.stderr)).toBe(true);
    expect(run.stdout).toBe('');
  });
});
