import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { referenceProfile, startReference, type ReferenceApp, type RunningReference } from '../reference/server.js';
import { seedAccount } from '../reference/data.js';
import type { Account } from '../reference/store.js';
import type { ConformanceDocument } from '../src/report/document.js';
import { ROOT } from './support/cli.js';
import { liveRunKeys, untilKeyLive } from './support/live-keys.js';

// Issue 31: whatever a user types from the README or the CI examples, a signal sent to the process
// group (as CI runners send it), or to the launcher alone (`docker stop`, `kill PID`), ends the run
// with every key it created deleted, a whole report that says it was interrupted, and the status of
// that signal; the runner then kills the group the moment the launcher exits.

const SIGNALS = [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const;

/** unshare(1) makes the launcher PID 1 of a PID namespace, as a container's entrypoint is. */
const UNSHARE = ['/usr/bin/unshare', '/bin/unshare'].find((path) => existsSync(path)) ?? null;

interface Launcher {
  /** The command, before the run's own arguments. */
  readonly command: readonly string[];
  /** Where it is typed: the clone (`npm run`), or a project with the suite installed. */
  readonly inClone: boolean;
  /** The launcher is the spawned process's child (PID 1 under unshare), not the process itself. */
  readonly pid1?: true;
  /**
   * Where the launcher's process cannot wait for the teardown: it exits first, and the run, out of
   * the group the runner kills, still ends clean (the CI examples do not use such a launcher).
   */
  readonly exitsEarly?: (signal: string, to: 'group' | 'launcher') => boolean;
  /**
   * The signal the run hears, where not the one sent: SIGHUP where the launcher is killed before
   * any signal reached it (the run then hears its IPC channel close, bin/conformance.mjs).
   */
  readonly heardAs?: (signal: string, to: 'group' | 'launcher') => string;
  /** Where the signal never reaches the run: the reason (the case is skipped, named). */
  readonly neverReaches?: (signal: string, to: 'group' | 'launcher') => string | null;
}

const LAUNCHERS: Record<string, Launcher> = {
  // The script runs `exec node bin/conformance.mjs`: npm's child is the launcher, and npm forwards
  // SIGINT and SIGTERM to it and waits; npm has no handler of SIGHUP, and dies of it at once.
  'npm run conformance': { command: ['npm', 'run', '--silent', 'conformance', '--'], inClone: true, exitsEarly: (signal) => signal === 'SIGHUP' },
  // `npx` runs `sh -c conformance`: that shell dies of SIGTERM and SIGHUP, and npm exits with it;
  // it waits out SIGINT for its child, which npm's forward to it never reaches.
  'npx --no-install conformance': {
    command: ['npx', '--no-install', 'conformance'],
    inClone: false,
    exitsEarly: (signal) => signal !== 'SIGINT',
    // SIGTERM to npm alone kills the shell; npm exits, and the runner kills the launcher.
    heardAs: (signal, to) => (signal === 'SIGTERM' && to === 'launcher' ? 'SIGHUP' : signal),
    neverReaches: (signal, to) =>
      signal === 'SIGINT' && to === 'launcher'
        ? 'npm forwards SIGINT to the `sh -c` it started, which holds it until its child ends: the run never hears it'
        : null,
  },
  'node_modules/.bin/conformance': { command: ['node_modules/.bin/conformance'], inClone: false },
  // The HUP a group gets is ignored by unshare itself, as a container runtime is not in the group.
  'PID 1 of a container': {
    command: ['sh', '-c', 'trap "" HUP; exec "$0" --pid --fork --mount-proc "$@"', UNSHARE ?? 'unshare', 'node_modules/.bin/conformance'],
    inClone: false,
    pid1: true,
  },
};

describe.skipIf(process.platform !== 'linux').concurrent('every launcher waits for the teardown', () => {
  let target: RunningReference;
  let app: ReferenceApp;
  let project: string;
  let profileFile: string;
  let runs = 0;

  beforeAll(async () => {
    // 20 requests a key a minute: a run of KEY-4 to KEY-7, whose checks each begin by creating
    // a key, creates keys, then waits for a window.
    const profile = { ...referenceProfile(), limits: { ...referenceProfile().limits, perKeyPerMinute: 20, windowSeconds: 60 } };
    target = await startReference({ profile, modify: (reference) => void (app = reference) });
    // A project with the suite installed, as npm links it.
    project = mkdtempSync(join(tmpdir(), 'conformance-launchers-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'api', version: '1.0.0', private: true }));
    mkdirSync(join(project, 'node_modules/.bin'), { recursive: true });
    symlinkSync(ROOT, join(project, 'node_modules/api-v1-conformance'));
    symlinkSync('../api-v1-conformance/bin/conformance.mjs', join(project, 'node_modules/.bin/conformance'));
    profileFile = join(project, 'profile.json');
    writeFileSync(profileFile, JSON.stringify(target.profile));
  });
  afterAll(async () => {
    await target?.close();
  });

  /** Keys the run made (by the suite's naming) that still work. */
  const liveKeysOf = (account: Account) => liveRunKeys([account]);

  const cases = Object.entries(LAUNCHERS).flatMap(([name, launcher]) =>
    (['group', 'launcher'] as const).flatMap((to) => SIGNALS.map(([signal, exit]) => ({ name, launcher, to, signal, exit }))),
  );

  for (const { name, launcher, to, signal, exit } of cases)
    test.skipIf((launcher.pid1 && !UNSHARE) || launcher.neverReaches?.(signal, to))(
      `${name}, ${signal} to the ${to}: every key deleted, a whole report, exit ${exit}`,
      async () => {
        // Each run an account of its own: runs at once neither see each other's keys nor share a rate-limit bucket.
        const n = ++runs;
        const account = app.state.store.addAccount(`acct_run${n}`, seedAccount(n, `r${n}`, 40));
        const { secret } = app.state.store.createKey(account, 'owner key');
        const reportDir = mkdtempSync(join(tmpdir(), 'conformance-launcher-run-'));
        const [command, ...args] = launcher.command;
        const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('CONFORMANCE_') && !key.startsWith('VITEST')));
        // A process group of its own, as a runner's step has.
        const child = spawn(command!, [...args, '--profile', profileFile, '--report-dir', reportDir, '--only', 'KEY-4,KEY-5,KEY-6,KEY-7', '--max-keys', '1'], {
          cwd: launcher.inClone ? ROOT : project,
          env: { ...clean, CONFORMANCE_BASE_URL: target.url, CONFORMANCE_API_KEY: secret },
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
        });
        let output = '';
        const waiting = new Promise<void>((resolve) => {
          const feed = (chunk: Buffer) => {
            output += chunk.toString();
            if (/waiting \d+ s more for/.test(output)) resolve();
          };
          child.stdout!.on('data', feed);
          child.stderr!.on('data', feed);
        });
        const exited = new Promise<{ at: number; status: number; outlived: boolean }>((resolve) =>
          child.on('exit', (code, sig) => {
            // What of the launcher's group is still there as it exits: the run, if it outlived it.
            let outlived = false;
            try {
              process.kill(-child.pid!, 0);
              outlived = true;
            } catch {
              // The group is empty.
            }
            // As a runner does: the step's process is gone, so is what is left of its group.
            try {
              process.kill(-child.pid!, 'SIGKILL');
            } catch {
              // The group is empty.
            }
            resolve({ at: Date.now(), status: code ?? 128 + constants.signals[sig!], outlived });
          }),
        );
        // Every holder of the output's pipe gone: the run too, where it outlived its launcher.
        const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
        try {
          // Mid-run, a key of its own live: what the teardown must delete after the signal.
          await Promise.race([
            waiting.then(() => untilKeyLive(() => liveKeysOf(account), 120_000)),
            exited.then(() => Promise.reject(new Error(`exited before a key was live:\n${output}`))),
          ]);
          const pid = launcher.pid1 ? Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(' ')[0]) : child.pid!;
          const sentAt = Date.now();
          process.kill(to === 'group' ? -child.pid! : pid, signal);
          const { at, status, outlived } = await exited;
          await closed;
          const doneAt = Date.now();
          console.log(
            `${name}, ${signal} to the ${to}: launcher exit ${at - sentAt} ms after the signal (status ${status}${outlived ? ', its run still going' : ''}), run done ${doneAt - sentAt} ms`,
          );

          expect(liveKeysOf(account), output).toEqual([]);
          const report = JSON.parse(readFileSync(join(reportDir, 'conformance.json'), 'utf8')) as ConformanceDocument;
          expect(report.stopped?.kind, output).toBe('interrupted');
          const heard = launcher.heardAs?.(signal, to) ?? signal;
          expect(report.stopped?.signal).toBe(heard);
          expect(readFileSync(join(reportDir, 'junit.xml'), 'utf8')).toContain(`run interrupted by ${heard}`);
          expect(status, output).toBe(exit);
          // The launcher exits only once the run is done, its report written, unless it cannot
          // (LAUNCHERS says why): nothing of its group is left as it exits. Not a time between its
          // exit and the pipe's close, which a loaded machine stretches (254 ms beside a busy core).
          if (!launcher.exitsEarly?.(signal, to)) expect(outlived, output).toBe(false);
        } finally {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            // Gone already.
          }
        }
      },
    );
});
