import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';

// A cancelled `npm test` leaves nothing running and nothing on disk (test/support/reaper.ts): the
// tests' own process ends by SIGKILL here, the one end no handler of its own can see.

const REAPER_MODULE = new URL('./support/reaper.ts', import.meta.url).href;

/** Whether a process of that pid still runs (a zombie of ours would still count; this one is no child of ours). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 50))) if (condition()) return true;
  return condition();
}

test('a test process killed outright takes the process groups it registered and its scratch folder with it', async () => {
  const outer = mkdtempSync(join(tmpdir(), 'reaper-'));
  const scratch = mkdtempSync(join(outer, 'scratch-'));
  // The "tests": start the reaper, a server-like child in a group of its own, register it, say its pid, die.
  const script = `
    import { spawn } from 'node:child_process';
    import { startReaper, reapWithTests } from ${JSON.stringify(REAPER_MODULE)};
    startReaper(${JSON.stringify(scratch)}, false);
    const server = spawn('sleep', ['120'], { detached: true, stdio: 'ignore' });
    reapWithTests(server.pid);
    process.stdout.write(server.pid + '\\n', () => process.kill(process.pid, 'SIGKILL'));
  `;
  const tests = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  tests.stdout.on('data', (chunk) => (out += chunk));
  const signal = await new Promise((resolve) => tests.once('exit', (_code, s) => resolve(s)));
  const server = Number(out.trim());
  try {
    expect(signal).toBe('SIGKILL');
    expect(server).toBeGreaterThan(0);
    expect(await until(() => !alive(server), 10_000), `the registered group (pid ${server}) still runs`).toBe(true);
    expect(await until(() => !existsSync(scratch), 10_000), 'the scratch folder is still there').toBe(true);
  } finally {
    if (server > 0 && alive(server)) process.kill(-server, 'SIGKILL');
    rmSync(outer, { recursive: true, force: true });
  }
}, 30_000);
