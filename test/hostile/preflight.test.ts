import { describe, expect, test } from 'vitest';
import { referenceProfile } from '../../reference/server.js';
import type { CliResult } from '../support/cli.js';
import { SPARE_NOTHING, startHostile, startRecorder, startSlowHandshake } from './server.js';
import { hasStackTrace, runAgainst } from './run.js';

// Targets the preflight cannot get past: the run stops before any check with exit 2 and one
// line saying why, no stack trace. None of these starts vitest, so each ends in seconds.

/**
 * CLI start to exit, a request deadline included, on a loaded machine (2-3 s when idle; five of
 * these start at once beside other test files, so the bound proves "no hang", not speed).
 */
const PREFLIGHT_BOUND_MS = 45_000;
const TIMEOUT_MS = 1000;
/** The redirect tests judge the answer, not the deadline: a loaded machine must not turn it into a timeout. */
const ANSWER_TIMEOUT_MS = 8000;

function expectOneLine(result: CliResult & { elapsedMs: number }, line: RegExp): void {
  expect(result.exitCode, result.stdout + result.stderr).toBe(2);
  const lines = result.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(line);
  expect(hasStackTrace(result.stdout + result.stderr)).toBe(false);
  expect(result.elapsedMs).toBeLessThan(PREFLIGHT_BOUND_MS);
}

/**
 * A port on which nothing listens: the discard port, as the other tests of an unreachable target
 * use. A port freed for the test was taken meanwhile by another test file's server: below the
 * range the kernel hands out to `listen(0)`, this one is never (stress at e789e0e, run 4: a
 * reference answered the run's key with 401, and the run said the key was rejected).
 */
const CLOSED_PORT = 9;

const keys = { main: 'sk_not_used_because_nothing_answers', other: 'sk_not_used_either' };

describe.concurrent('a target the preflight cannot get past', () => {
  test(`a target down from the start: exit 2, one line, within ${PREFLIGHT_BOUND_MS / 1000} s`, async () => {
    const url = `http://127.0.0.1:${CLOSED_PORT}`;
    const result = await runAgainst({ url, keys, profile: referenceProfile() }, ['--timeout', String(TIMEOUT_MS)]);
    expectOneLine(result, /^CONF_TARGET_UNREACHABLE: http:\/\/127\.0\.0\.1:\d+ does not answer: .*connection refused \(after 3 retries\)$/);
  });

  test('a TLS handshake that never completes: exit 2, one line naming the timeout', async () => {
    const stalled = await startSlowHandshake('https://127.0.0.1:9', null);
    try {
      const result = await runAgainst({ url: stalled.url, keys, profile: referenceProfile() }, ['--timeout', String(TIMEOUT_MS)]);
      expectOneLine(
        result,
        /^CONF_TARGET_UNREACHABLE: https:\/\/127\.0\.0\.1:\d+ does not answer: .*timeout: no (response|connection) within 1000 ms( \(after 3 retries\))?$/,
      );
    } finally {
      await stalled.close();
    }
  });

  for (const status of [301, 302, 307] as const) {
    test(`a preflight redirected with ${status}: exit 2 naming the Location, and the other origin never sees the key`, async () => {
      const elsewhere = await startRecorder();
      const target = await startHostile({ behaviour: 'redirects-elsewhere', spare: SPARE_NOTHING, redirectTo: elsewhere.url, redirectStatus: status });
      try {
        const result = await runAgainst(target, ['--timeout', String(ANSWER_TIMEOUT_MS)]);
        const location = `${elsewhere.url}/api/v1/workspaces`.replace(/[./]/g, '\\$&');
        expectOneLine(result, new RegExp(`^CONF_TARGET_REDIRECTED: GET /api/v1/workspaces answered ${status} to ${location}: is the base URL right\\?$`));
        expect(elsewhere.seen).toEqual([]);
      } finally {
        await target.close();
        await elsewhere.close();
      }
    });
  }
});
