#!/usr/bin/env node
// The CLI: its TypeScript sources compiled ahead of time, or run through tsx (bin/compiled.mjs), so
// that a clone works with `npx conformance` and no build step.
//
// This process is a launcher: the run itself is a child in a process group (and session) of its
// own, and this process forwards SIGINT, SIGTERM and SIGHUP to it and exits with its status once
// it is done, its keys deleted and its report written. Why: a CI runner signals the whole process
// group, and a shell between it and the run (`npx` runs `sh -c conformance`) dies of SIGTERM at
// once; npm then exits and the runner kills what is left of the group, the run cut mid-teardown
// with its keys live. Out of the group, the run outlives that kill and ends its teardown; and
// where the launcher is killed outright, the run hears it (its IPC channel closes) and stops as
// for SIGHUP (src/run/interrupt.ts).
import { spawn } from 'node:child_process';
import nodeModule from 'node:module';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Set in the run's environment by the launcher: this process is the run, and its IPC channel tells
 * whether the launcher is still there (`ipc`; `direct`: no launcher to watch, as tests start a run).
 */
const LAUNCHED = 'CONFORMANCE_LAUNCHED';
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

// Under a debugger (`node --inspect`), the run stays in this process: a child would find the
// debugger's port taken, and the one debugged would be the launcher.
const debugging = process.execArgv.some((arg) => arg.startsWith('--inspect'));

// Node's cache of compiled modules on disk (Node 22.1 and later; absent before): a run loads the
// same modules as the one before, and compiling them is a tenth of a local run. Handed to the run
// through its environment, which its threads (vitest's worker) read as they start; a run started
// without the launcher puts it there itself. Where the user set a folder, theirs.
const COMPILE_CACHE = process.env.NODE_COMPILE_CACHE || join(tmpdir(), 'node-compile-cache');
const { enableCompileCache } = nodeModule;

if (process.env[LAUNCHED] || debugging) {
  if (enableCompileCache) {
    // In the environment too, for the threads (a run started directly, without the launcher).
    process.env.NODE_COMPILE_CACHE = COMPILE_CACHE;
    enableCompileCache(COMPILE_CACHE);
  }
  // Not handed down: a run this one starts (a fleet's deployments) has a launcher of its own.
  delete process.env[LAUNCHED];
  // The channel only tells that the launcher went away: it must not keep the run alive.
  process.channel?.unref();
  // A launcher killed outright leaves the output's pipe without a reader: a write to it must not
  // crash the teardown.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  const { importSource } = await import('./compiled.mjs');
  await importSource('bin/cli.ts');
} else {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [LAUNCHED]: 'ipc', ...(enableCompileCache ? { NODE_COMPILE_CACHE: COMPILE_CACHE } : {}) },
    // A new session: out of the group a runner kills (on Windows, a new console window instead).
    detached: process.platform !== 'win32',
  });
  // Every signal is forwarded: the run counts the group's copy and npm's forward of one signal
  // once, and a second one after a pause exits at once.
  for (const signal of SIGNALS) process.on(signal, () => void child.kill(signal));
  child.on('error', (error) => {
    process.stderr.write(`CONF_SUITE_FAULT: could not start the run: ${error.message}\n`);
    process.exit(2);
  });
  // The shell's convention for a process that a signal ended: 128 + its number.
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
}
