import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.js';

// The run host (test/support/run-host.ts) runs many CLI runs in one process: each must be the run
// a process of its own would have made, and nothing of one may reach the next.

/**
 * A dry run's plan, without what differs from one run to the next: the embedded reference's port,
 * the times, which count from where the target's window stands and from the pace it measured, and
 * whether the window's end is named at all (at one-second windows, a Reset already past by the
 * time the plan is made, on a loaded machine, names none: a stress run printed it for one of the two)
 * (`targetPace`).
 */
const planOf = (stdout: string) =>
  stdout
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/\d+(\.\d+)? s\b/g, 'N s')
    .replace(/ if it starts now \(the target's window ends in N s\); N s if it starts as a window begins/g, '')
    .replace(/, the target's window ending in N s/g, '');

describe('a run in the run host', () => {
  it('prints the plan, and exits with the status, that a run in a process of its own does', async () => {
    const args = ['--dry-run', '--seed', '7', '--only', 'PAG'];
    const [own, hosted] = await Promise.all([runCli(args, {}, { process: true }), runCli(args)]);
    expect(hosted.exitCode).toBe(own.exitCode);
    expect(planOf(hosted.stdout)).toBe(planOf(own.stdout));
    expect(hosted.stderr).toBe(own.stderr);
  });

  it('keeps nothing of the run before: its settings, its exit status, its output', async () => {
    const told = await runCli(['--dry-run'], { CONFORMANCE_SEED: '11' });
    expect(told.stdout).toContain('seed 11');
    // The same host (one run at a time in this file), without the setting: a seed of its own.
    const untold = await runCli(['--dry-run']);
    expect(untold.exitCode).toBe(0);
    expect(untold.stdout).not.toContain('seed 11,');
    // A wrong setting's exit status 2 is that run's alone.
    const wrong = await runCli(['--timeout', 'soon']);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toMatch(/^CONF_SETTING_INVALID/);
    const after = await runCli(['--dry-run', '--only', 'ERR']);
    expect(after.exitCode).toBe(0);
    expect(after.stderr).toBe('');
  });

  it('a run past its deadline has its host killed, exit -1 as a killed process gives it, and the next run gets a host of its own', async () => {
    // A target that takes connections and never answers: the run waits on its preflight.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const cut = await runCli(
        ['--timeout', '30s'],
        { CONFORMANCE_BASE_URL: `http://127.0.0.1:${port}`, CONFORMANCE_API_KEY: 'sk_silent_0000000000000000' },
        { timeoutMs: 1500 },
      );
      expect(cut.exitCode).toBe(-1);
      const next = await runCli(['--dry-run', '--only', 'ERR']);
      expect(next.exitCode).toBe(0);
    } finally {
      silent.close();
    }
  });
});
