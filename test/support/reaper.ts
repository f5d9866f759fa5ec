import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

// What `npm test` started outside its own process group outlives it when it is cancelled: a front
// end runs in a group of its own (so that a SIGKILL reaches the workers it forked), and a CI job's
// cancel, Ctrl-C or `kill` of the test process reaches only the group they were sent to; a SIGKILL
// of the test process reaches nothing else at all, and the global teardown never runs. Measured: a
// cancelled run of test/network/real-stacks.test.ts left lighttpd and Varnish serving, and its
// scratch folder on disk.
//
// The reaper is a small process of its own, started by the global setup, that reads a pipe from the
// test process: the pipe closes when that process ends, however it ends, and the reaper then kills
// the process groups the tests registered and still hold, and removes the scratch folder. The
// global teardown tells it "done" first: the tests stopped what they started and the teardown
// removes the scratch itself (or keeps it, KEEP_TEST_TMP).

/** The environment variable naming the file where tests register the process groups they start. */
const GROUPS_FILE_VARIABLE = 'CONFORMANCE_TEST_PROCESS_GROUPS';

/** The reaper's program: a line "+PGID" registers a group, "-PGID" forgets one it stopped. */
const REAPER = `
const { readFileSync, rmSync } = require('node:fs');
const [groupsFile, scratch, keep] = process.argv.slice(1);
let said = '';
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => undefined);
process.stdin.on('data', (chunk) => { said += chunk; });
process.stdin.on('close', () => {
  if (said.includes('done')) process.exit(0);
  let lines = [];
  try { lines = readFileSync(groupsFile, 'utf8').split('\\n'); } catch {}
  const held = new Set();
  for (const line of lines) {
    if (line.startsWith('+')) held.add(Number(line.slice(1)));
    if (line.startsWith('-')) held.delete(Number(line.slice(1)));
  }
  for (const group of held) { try { process.kill(-group, 'SIGKILL'); } catch {} }
  if (keep !== '1') rmSync(scratch, { recursive: true, force: true });
  process.exit(0);
});
`;

export interface Reaper {
  /** The tests ended normally: the reaper leaves, killing and removing nothing. */
  done(): void;
}

/**
 * Starts the reaper of `scratch` (the tests' scratch folder), in a process group of its own so
 * that the signal that cancels the tests does not end it first; sets the variable by which the
 * test files, in this process's threads, find where to register what they start.
 */
export function startReaper(scratch: string, keepScratch: boolean): Reaper {
  const groupsFile = join(scratch, 'process-groups');
  process.env[GROUPS_FILE_VARIABLE] = groupsFile;
  const child = spawn(process.execPath, ['-e', REAPER, groupsFile, scratch, keepScratch ? '1' : '0'], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  });
  // Neither the reaper nor its pipe keeps the tests running.
  child.unref();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  return {
    done: () => {
      child.stdin?.end('done');
    },
  };
}

/** Registers the process group `pgid` (a detached child's pid) to be killed if the tests end before they stop it. */
export function reapWithTests(pgid: number | undefined): void {
  const file = process.env[GROUPS_FILE_VARIABLE];
  if (file !== undefined && pgid !== undefined) appendFileSync(file, `+${pgid}\n`);
}

/** The group `pgid` was stopped by its test: the reaper forgets it (its number may be another's later). */
export function stoppedWithTest(pgid: number | undefined): void {
  const file = process.env[GROUPS_FILE_VARIABLE];
  if (file !== undefined && pgid !== undefined) appendFileSync(file, `-${pgid}\n`);
}
