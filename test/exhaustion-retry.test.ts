import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import slidingWindow from '../variants/rate-sliding-window.js';
import type { ReferenceApp } from '../reference/server.js';
import { runAgainstReference } from './support/cli.js';

// RATE-3 and RATE-6 share one exhaustion of a created key (suites/support/exhaustion.ts). Where
// the created key's window ends before the main key's probe is answered (a loaded machine, a short
// window), the key is exhausted again. The second burst must start on a fresh budget: a target
// whose window slides (a log of each request's time, Reset naming when the oldest leaves it) still
// counts the probes sent after the first burst when its Reset has passed, and a burst begun then
// meets its 429 before the ceiling, which RATE-6 reads as a budget shared with other keys. Seen
// once in `npm test` on a loaded machine against the blind Node implementation.

/** How long the main key's probe after the first exhaustion is held: past the created key's window and its recovery probe. */
const HELD_MS = 1950;

/** Whether an Authorization header carries the main account's own key (the reference keeps its hash). */
function isMainKey(reference: ReferenceApp, authorization: string | undefined): boolean {
  const owner = [...reference.state.store.accounts[0]!.keys.values()].find((key) => key.name === 'owner key');
  const secret = authorization?.replace(/^Bearer /, '');
  return owner !== undefined && secret !== undefined && createHash('sha256').update(secret).digest().equals(owner.hash);
}

/** The sliding-window variant, with the main key's first request after any key's first 429 held. */
function heldAfterExhaustion(reference: ReferenceApp): void {
  slidingWindow.modify!(reference);
  const hit = reference.state.limiter.hit;
  let exhausted = false;
  let held = false;
  reference.state.limiter.hit = (bucket, ceiling) => {
    const decision = hit(bucket, ceiling);
    if (decision.exceeded) exhausted = true;
    return decision;
  };
  reference.app.addHook('onRequest', async (request) => {
    if (!exhausted || held || !isMainKey(reference, request.headers.authorization)) return;
    held = true;
    await new Promise((resolve) => setTimeout(resolve, HELD_MS));
  });
}

describe("a created key's exhaustion made again after its window ended", () => {
  test('starts on a fresh budget on a sliding window, and RATE-6 passes', async () => {
    const { report, reportDir } = await runAgainstReference({ modify: heldAfterExhaustion }, ['--only', 'RATE-6']);
    // Made again: a second burst's 429 besides the first burst's and the probe's after it.
    const har = JSON.parse(readFileSync(join(reportDir, 'exchanges.har'), 'utf8')) as { log: { entries: { response: { status: number } }[] } };
    const statuses = har.log.entries.map((e) => e.response.status);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(3);
    const rate6 = report.clauses.find((c) => c.id === 'RATE-6')!;
    expect(rate6.status, JSON.stringify(rate6)).toBe('pass');
  });
});
