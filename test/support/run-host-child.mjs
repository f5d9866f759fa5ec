// A run host (test/support/run-host.ts): one process that runs the CLI's `main` again and again,
// one run at a time, each in the environment, folder and arguments its test gave, as
// bin/conformance.mjs would run it directly. Its test process sends a run as an IPC message; the
// run's output comes back as it is written, then its exit status.
//
// What it saves is what every run pays before its first request: Node starting, the CLI's modules
// and vitest's node API loading and compiling (some 0.65 CPU-seconds of a small run's 1.45). What
// each run still makes afresh is everything the run itself holds: its settings, parts and clock,
// its vitest and the worker thread that loads the suites, its connections, its signal handlers.
import nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSource } from '../../bin/compiled.mjs';

// As bin/conformance.mjs does for a run started directly: the threads read it as they start.
const COMPILE_CACHE = process.env.NODE_COMPILE_CACHE || join(tmpdir(), 'node-compile-cache');
nodeModule.enableCompileCache?.(COMPILE_CACHE);
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);

const { main } = await importSource('src/cli/main.ts');
const { runParts } = await importSource('bin/parts.ts');

/** How long a run's last work (vitest closing its pool and server) may go on after it returned. */
const SETTLE_MS = 3000;

// The test process went away: nothing is waiting for this host.
process.on('disconnect', () => process.exit(0));
process.on('message', (message) => void hostRun(message));
process.send({ ready: true });

/** One run: `main` in the run's own environment and folder, its output sent back as it is written. */
async function hostRun({ args, env, cwd }) {
  const listeners = snapshotListeners();
  const resources = process.getActiveResourcesInfo().length;
  for (const name of Object.keys(process.env)) delete process.env[name];
  Object.assign(process.env, env, { NODE_COMPILE_CACHE: COMPILE_CACHE });
  // As bin/conformance.mjs does: a run it starts (a fleet's deployments) has a launcher of its own.
  delete process.env.CONFORMANCE_LAUNCHED;
  process.chdir(cwd);
  process.exitCode = undefined;
  const writes = { out: process.stdout.write, err: process.stderr.write };
  const capture = (stream) => (chunk, encoding, callback) => {
    process.send({ [stream]: typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8') });
    (typeof encoding === 'function' ? encoding : callback)?.();
    return true;
  };
  process.stdout.write = capture('out');
  process.stderr.write = capture('err');
  let exitCode;
  try {
    exitCode = await main(args, runParts(process.env));
  } catch (error) {
    process.send({ err: `run host: main threw: ${error?.stack ?? error}\n` });
    exitCode = 2;
  } finally {
    // As the CLI exits once main returns, what the run writes after it is not its output.
    process.stdout.write = writes.out;
    process.stderr.write = writes.err;
  }
  // The next run starts once this one's last work is done (or SETTLE_MS has passed): its vitest,
  // closing, must not share the process with the next one's.
  const until = Date.now() + SETTLE_MS;
  while (process.getActiveResourcesInfo().length > resources && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
  restoreListeners(listeners);
  process.exitCode = undefined;
  process.send({ exitCode });
}

function snapshotListeners() {
  return new Map(process.eventNames().map((name) => [name, new Set(process.listeners(name))]));
}

/** What a run left listening on the process (vitest's exit hooks) goes with it. */
function restoreListeners(before) {
  for (const name of process.eventNames()) {
    const kept = before.get(name) ?? new Set();
    for (const listener of process.listeners(name)) if (!kept.has(listener)) process.off(name, listener);
  }
}
