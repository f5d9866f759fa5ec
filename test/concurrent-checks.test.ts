import { join } from 'node:path';
import { expect, test } from 'vitest';
import { readLedgerFile, type LedgerEntry } from '../src/broker/ledger.js';
import { sharedRun } from './support/cli.js';

// Checks declared `concurrent` (CheckOptions) run at once with their neighbours in the file: the
// key checks' and rate-limit checks' waits overlap instead of adding up, which the run's wall
// time at real limits rests on. Proved on the ledger: KEY-7 holds its key for more than a second
// and KEY-5 waits a second after deleting its own, so run one after the other neither asks for its
// key before the other's is deleted, and run at once each does. Asked for, not created: the
// answers to the two creations may come in either order, and beside a busy core KEY-5's key was
// once created and deleted before KEY-7's creation was answered, though both were asked for at once
// (`npm run stress`).

/** Where in the ledger the key whose name ends with `purpose` was asked for, created and deleted. */
function lifetime(ledger: readonly LedgerEntry[], purpose: string): { asked: number; created: number; deleted: number } {
  const at = (event: string) => ledger.findIndex((line) => line.kind === 'api_key' && line.event === event && (line.name ?? '').endsWith(`-${purpose}`));
  return { asked: at('creating'), created: at('created'), deleted: at('deleted') };
}

test('concurrent checks of one file run at once: the keys of KEY-5 and KEY-7 live at the same time', async () => {
  // The run test/key-waits.test.ts reads too, made once.
  const result = await sharedRun(['--only', 'KEY-5,KEY-7', '--max-keys', '1']);
  expect(result.exitCode, result.stderr || result.stdout).toBe(0);
  const ledger = readLedgerFile(join(result.reportDir, 'ledger.jsonl'));
  const revoked = lifetime(ledger, 'revoked');
  const lastUse = lifetime(ledger, 'last-use');
  for (const key of [revoked, lastUse]) {
    expect(key.asked, JSON.stringify(ledger.map((l) => `${l.event} ${l.name}`))).toBeGreaterThanOrEqual(0);
    expect(key.created).toBeGreaterThan(key.asked);
    expect(key.deleted).toBeGreaterThan(key.created);
  }
  // Each was asked for before the other was deleted.
  expect(revoked.asked).toBeLessThan(lastUse.deleted);
  expect(lastUse.asked).toBeLessThan(revoked.deleted);
});
