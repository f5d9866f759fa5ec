import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compiledUrl } from '../../bin/compiled.mjs';
import { startReaper } from './reaper.js';
import { announceRunHosts, serveRunHosts } from './run-host-broker.js';

/**
 * One temporary folder for the whole `npm test`: every test, and every CLI run and server it
 * starts, makes its scratch folders inside it (os.tmpdir() reads TMPDIR), and it is removed at
 * the end, so that a run of the tests leaves nothing behind, also when it is cancelled (`reaper.ts`).
 * KEEP_TEST_TMP=1 keeps it, to read the reports a failed test names.
 */
export default async function setup(): Promise<() => Promise<void>> {
  // Compiled once before the first test, not by several of the CLI runs that start together.
  await compiledUrl('bin/cli.ts');
  const dir = mkdtempSync(join(tmpdir(), 'conformance-tests-'));
  // Traversable, not listable: front ends that drop root for their workers (lighttpd, Varnish as
  // www-data and varnish) open their logs and work folders inside it (test/support/front-ends/).
  chmodSync(dir, 0o711);
  process.env.TMPDIR = dir;
  const keep = Boolean(process.env.KEEP_TEST_TMP);
  const reaper = startReaper(dir, keep);
  // The CLI runs of every test file, in run hosts this process keeps (run-host-broker.ts).
  const socket = join(dir, 'run-hosts.sock');
  const hosts = await serveRunHosts(socket);
  announceRunHosts(socket);
  return async () => {
    await hosts.close();
    reaper.done();
    if (keep) process.stdout.write(`test scratch kept in ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  };
}
