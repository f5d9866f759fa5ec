import { expect, test } from 'vitest';
import { referenceProfile, startReference } from '../../reference/server.js';
import type { ReferenceState } from '../../reference/state.js';
import type { ConformanceDocument } from '../../src/report/document.js';
import { readReport } from '../support/cli.js';
import { runAgainst } from '../hostile/run.js';
import { liveRunKeys } from '../support/live-keys.js';

// Two CI jobs check the same deployment with the same key at the same time. Each deletes only
// what it created (its own ledger), and each paces itself on the budget the target says is
// left, which the other run spends too (README: sharing one key).

/** What sharing a key touches: keys created and deleted, and the rate-limit budget. */
const SELECTION = ['--only', 'KEY,AUTH,RATE'];
/** A budget the two runs cannot both spend in full (each alone sends about 8 a second): each must pace on what the headers say is left. */
const LIMITS = { perKeyPerMinute: 10, unauthenticatedPerMinute: 10, windowSeconds: 1 };

test('two runs at once with one key: each deletes only its own keys, none is left, nothing breaks', async () => {
  let state: ReferenceState | null = null;
  const deletes: { url: string; status: number }[] = [];
  const target = await startReference({
    profile: { ...referenceProfile(), limits: LIMITS },
    modify: (reference) => {
      state = reference.state;
      reference.app.addHook('onResponse', async (req, reply) => {
        if (req.method === 'DELETE') deletes.push({ url: req.url, status: reply.statusCode });
      });
    },
  });
  try {
    const results = await Promise.all([runAgainst(target, SELECTION), runAgainst(target, SELECTION)]);
    const reports: ConformanceDocument[] = results.map((result) => {
      expect(result.exitCode, result.stdout + result.stderr).not.toBe(2);
      return readReport(result);
    });
    // Keys: submissions cannot be deleted through the API, so only keys are cleaned up.
    const keys = (entries: ConformanceDocument['resources']['created']) => entries.filter((e) => e.kind === 'api_key');
    const [a, b] = reports.map((report) => ({
      created: new Set(keys(report.resources.created).map((e) => e.id)),
      removed: keys(report.resources.removed).map((e) => e.id),
      runIds: new Set([...report.resources.created, ...report.resources.removed].map((e) => e.runId)),
    }));
    for (const run of [a!, b!]) {
      expect(run.created.size).toBeGreaterThan(0);
      expect(run.runIds.size).toBe(1);
      // Everything it deleted, it had created; everything it created, it deleted.
      expect(run.removed.filter((id) => !run.created.has(id))).toEqual([]);
      expect([...run.created].filter((id) => !run.removed.includes(id))).toEqual([]);
    }
    expect([...a!.created].filter((id) => b!.created.has(id))).toEqual([]);
    // On the wire: no key was deleted twice, so neither run deleted the other's.
    const deleted = deletes.filter((d) => d.status >= 200 && d.status < 300).map((d) => d.url);
    expect(new Set(deleted).size).toBe(deleted.length);
    expect(liveRunKeys(state!.store.accounts)).toEqual([]);
    // Sharing the key is not the target's fault: no check is "the suite broke".
    for (const report of reports) expect(report.clauses.filter((c) => c.status === 'error').map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
    // Pacing on the Remaining the target reports: the shared budget binds (both runs wait), yet
    // only the odd race between the two ends in a 429 (waited out and retried, not a finding).
    // Counting only its own requests, each run would send twice what the key allows.
    for (const report of reports) {
      expect(report.environment.waitedMs).toBeGreaterThan(0);
      expect(report.environment.unplanned429).toBeLessThanOrEqual(report.environment.requests / 10);
      const failed = report.clauses.filter((c) => c.status === 'fail' || c.status === 'warn').map((c) => `${c.id} ${c.status}: ${c.reason}`);
      expect(failed).toEqual([]);
      expect(report.verdict).toBe('conformant');
    }
  } finally {
    await target.close();
  }
});
