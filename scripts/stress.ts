import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, lstatSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ORDER_SEED_VARIABLE } from '../test/support/sequencer.js';

// `npm run stress -- [--runs N] [--busy] [--shuffle] [--out DIR] [-- vitest args]`: the whole `npm test` N times
// in a row, with `--busy` beside a busy loop on one core (a CI machine that runs something else too),
// with `--shuffle` each run in an order of its own (test/support/sequencer.ts: a file finds what the
// one before it in its thread left; its seed is printed, `TEST_ORDER_SEED=seed npm test` repeats it),
// keeping the whole log of every run that failed and its tests' scratch folder (the reports of the
// runs the tests made: a failed test names its run's report there). A test that fails once here is a bug: fix its
// cause, never its tolerance alone. Prints one line a run and a summary of the tests that failed.

const { values, positionals } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    busy: { type: 'boolean', default: false },
    shuffle: { type: 'boolean', default: false },
    out: { type: 'string', default: 'stress-logs' },
  },
  allowPositionals: true,
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  process.stderr.write(`stress: --runs must be a whole number of at least 1, got "${values.runs}"\n`);
  process.exit(2);
}
const out = values.out!;
mkdirSync(out, { recursive: true });

/** A core kept busy for the whole stress run: a loop that never yields, in a process of its own. */
function busyLoop(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

/** The `npm test` under way, in a process group of its own: a signal to the stress run ends it whole. */
let current: ChildProcess | null = null;

/** One `npm test`, in the order `seed` gives when there is one: its exit status, its whole output and how long it took. */
function npmTest(seed: string | null): Promise<{ code: number; output: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['test', ...(positionals.length > 0 ? ['--', ...positionals] : [])], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      // The tests' scratch folder outlives the run (test/support/global-setup.ts), for a red run's reports.
      env: { ...process.env, KEEP_TEST_TMP: '1', ...(seed !== null ? { [ORDER_SEED_VARIABLE]: seed } : {}) },
    });
    current = child;
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output, ms: Date.now() - started }));
  });
}

/** The names of the tests vitest marked failed, from its output without colours. */
function failedTests(output: string): string[] {
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  return [...new Set(plain.split('\n').flatMap((line) => /^\s*FAIL\s+(.*)$/.exec(line)?.[1]?.trim() ?? []))];
}

const busy = values.busy ? busyLoop() : null;
const stop = () => busy?.kill('SIGKILL');
// Ctrl-C, a kill or a closed terminal: the busy loop and the npm test under way (its whole group) end with the stress run.
for (const [signal, status] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const) {
  process.once(signal, () => {
    stop();
    if (current?.pid !== undefined) {
      try {
        process.kill(-current.pid, 'SIGTERM');
      } catch {
        // Ended already.
      }
    }
    process.exit(status);
  });
}
/** The scratch folder the run's global teardown kept ("test scratch kept in DIR"); null when it says none. */
function scratchOf(output: string): string | null {
  return /test scratch kept in (\S+)/.exec(output)?.[1] ?? null;
}

/** A copy of a red run's scratch folder: its files, not its sockets, nor what a front end's user kept to itself. */
function keepScratch(from: string, to: string): void {
  const regular = (path: string): boolean => {
    try {
      const stat = lstatSync(path);
      return stat.isFile() || stat.isDirectory() || stat.isSymbolicLink();
    } catch {
      return false;
    }
  };
  try {
    cpSync(from, to, { recursive: true, filter: regular });
  } catch (error) {
    process.stdout.write(`  (the scratch folder was copied in part: ${(error as Error).message})\n`);
  }
}

const failures = new Map<string, number>();
let green = 0;
try {
  for (let i = 1; i <= runs; i++) {
    const seed = values.shuffle ? randomBytes(4).toString('hex') : null;
    const { code, output, ms } = await npmTest(seed);
    const failed = failedTests(output);
    const scratch = scratchOf(output);
    if (code === 0) green++;
    else {
      const log = join(out, `run-${i}.log`);
      writeFileSync(log, `${seed !== null ? `${ORDER_SEED_VARIABLE}=${seed} npm test\n\n` : ''}${output}`);
      if (scratch !== null) keepScratch(scratch, join(out, `run-${i}-scratch`));
      for (const name of failed.length > 0 ? failed : ['(no test named: see the log)']) failures.set(name, (failures.get(name) ?? 0) + 1);
    }
    if (scratch !== null) rmSync(scratch, { recursive: true, force: true });
    process.stdout.write(
      `run ${i} of ${runs}${busy ? ' (beside a busy core)' : ''}${seed !== null ? `, order seed ${seed}` : ''}: ${code === 0 ? 'green' : `red, log in ${join(out, `run-${i}.log`)}`} in ${Math.round(ms / 1000)} s\n`,
    );
  }
} finally {
  stop();
}
process.stdout.write(`${green} of ${runs} green${busy ? ' beside a busy core' : ''}\n`);
for (const [name, count] of failures) process.stdout.write(`  failed ${count} time(s): ${name}\n`);
process.exit(green === runs ? 0 : 1);
