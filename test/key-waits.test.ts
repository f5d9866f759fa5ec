import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { sharedRun } from './support/cli.js';

// The waits of KEY-5 and KEY-7 count from what they wait after: a second from the deletion's
// answer (KEY-5's requests meanwhile count toward it), 1.1 s from the key's last use (KEY-7's
// reading of its last-use time too). Proved on the run's exchanges, as exchanges.har keeps them.

interface Entry {
  readonly startedDateTime: string;
  readonly time: number;
  readonly comment: string;
  readonly request: { readonly method: string; readonly url: string };
}

const startOf = (e: Entry) => Date.parse(e.startedDateTime);
const endOf = (e: Entry) => startOf(e) + e.time;
/** The timers' clock and the wall clock may differ by a millisecond. */
const CLOCK_MS = 2;

test('KEY-5 asks again a second after the deletion was answered, and KEY-7 uses its key again 1.1 s after its last use', async () => {
  // The run test/concurrent-checks.test.ts reads too, made once.
  const result = await sharedRun(['--only', 'KEY-5,KEY-7', '--max-keys', '1']);
  expect(result.exitCode, result.stderr || result.stdout).toBe(0);
  const entries = (JSON.parse(readFileSync(join(result.reportDir, 'exchanges.har'), 'utf8')) as { log: { entries: Entry[] } }).log.entries;
  // The checks' own exchanges, not the explorer's (its KEY-5 check is selected too, and runs its sequences then).
  const of = (clause: string) => entries.filter((e) => e.comment.includes(`clause ${clause},`) && !e.comment.includes('the explorer'));

  const revoked = of('KEY-5');
  const deletion = revoked.find((e) => e.request.method === 'DELETE')!;
  const later = revoked[revoked.length - 1]!;
  expect(later.request.method).toBe('GET');
  expect(startOf(later) - endOf(deletion)).toBeGreaterThanOrEqual(1000 - CLOCK_MS);

  // The key's first use follows its creation; the check's second use is its last GET of that path.
  const lastUse = of('KEY-7');
  const uses = lastUse.filter((e) => e.request.method === 'GET' && !new URL(e.request.url).pathname.includes('api_keys'));
  expect(uses.length).toBe(2);
  expect(startOf(uses[1]!) - endOf(uses[0]!)).toBeGreaterThanOrEqual(1100 - CLOCK_MS);
});
