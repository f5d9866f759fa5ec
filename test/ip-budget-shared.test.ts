import { describe, expect, test } from 'vitest';
import type { Modification } from '../reference/server.js';
import { runAgainstReference } from './support/cli.js';

// RATE-7 infers that requests with a valid key were counted against the per-IP budget when its
// burst without a key meets the 429 early by no more than the valid requests it sent in that window.
// Another client behind the same address (a second run: test/network/two-runs-at-once.test.ts
// failed so once; CI runners behind one NAT) spends that budget now and then, and its requests
// look the same. The inference stands only when a burst alone reaches the ceiling and the early
// 429 comes again. That a target counting valid keys still fails RATE-7 is the kill matrix's
// (mutant rate-ip-budget-counts-keys, a whole run: a run of RATE-7 alone may start its burst in a
// window its preflight's requests with a key have left, one run in twenty or so, and prove nothing).

// The hooks run once the API has answered: a request without a key is answered (401, or 429) before
// any hook of the request's own would run, and another client's request comes beside it anyway.

/** Another client on the run's address, once: one request without a key, right after RATE-7's valid ones. */
const anotherClientOnce: Modification = ({ app, state }) => {
  let validInARow = 0;
  let done = false;
  app.addHook('onResponse', async (req) => {
    if (req.headers.authorization !== undefined) {
      validInARow++;
      return;
    }
    if (!done && validInARow >= 3) {
      done = true;
      state.limiter.hit(`ip:${req.ip}`, state.profile.limits.unauthenticatedPerMinute);
    }
    validInARow = 0;
  });
};

/** Another client on the run's address that sends one request without a key into every window of the per-IP budget the run's requests meet. */
const anotherClientAlways: Modification = ({ app, state }) => {
  const windows = new Set<unknown>();
  app.addHook('onResponse', async (req, reply) => {
    if (req.headers.authorization !== undefined) return;
    const window = reply.getHeader('x-ratelimit-reset');
    if (windows.has(window)) return;
    windows.add(window);
    state.limiter.hit(`ip:${req.ip}`, state.profile.limits.unauthenticatedPerMinute);
  });
};

describe('RATE-7 beside another client on the same IP address', () => {
  test('one request of another client in the burst window is no finding: the burst made again reaches the ceiling', async () => {
    const { report } = await runAgainstReference({ modify: anotherClientOnce }, ['--only', 'RATE-7']);
    const clause = report.clauses.find((c) => c.id === 'RATE-7')!;
    expect(clause.status, clause.reason ?? '').toBe('pass');
  });

  test('another client in every window leaves RATE-7 unjudged, not failed', async () => {
    const { report } = await runAgainstReference({ modify: anotherClientAlways }, ['--only', 'RATE-7']);
    const clause = report.clauses.find((c) => c.id === 'RATE-7')!;
    expect(clause.status, clause.reason ?? '').toBe('skipped');
    expect(clause.checks[0]!.reason).toMatch(/another client/);
  });
});
