import { beforeAll, describe, expect, test } from 'vitest';
import type { ConformanceDocument } from '../../src/report/document.js';
import { readReport, type CliResult } from '../support/cli.js';
import { byCollection, SPARE_NOTHING, startHostile, startRecorder, type HostileBehaviour } from './server.js';
import { hasStackTrace, runAgainst } from './run.js';

// Each hostile behaviour, met by a whole run (the CLI in a child process): the run ends within
// its bound, fails checks with a reason naming what the target did, does not crash, and deletes
// every key it created. The runs go concurrently in beforeAll; each test judges one behaviour.

/** Deadline of one request in these runs. */
const TIMEOUT_MS = 1000;
/**
 * GEN meets the behaviour on odd paths, KEY creates keys. Every check costs at most one
 * deadline, so a run's length grows with its number of checks, never with the target's
 * patience. `--strict` makes SHOULD findings fail too, so that every run exits 1.
 */
const ARGS = ['--timeout', String(TIMEOUT_MS), '--only', 'GEN,KEY', '--strict'];
/**
 * One whole run, CLI start to exit, with the three other runs beside it and the rest of the
 * project's tests on two cores: a hang detector. About 25 s each on an idle machine.
 */
const RUN_BOUND_MS = 150_000;
/** What one request may take beyond its deadline: timers fire late on a loaded machine. */
const DEADLINE_SLACK_MS = 5000;

/**
 * Behaviours that share one run, each met by the requests of the collections it is given and the
 * last by every other request (`byCollection`), so that three runs meet them all, and each request
 * the same behaviour in every run; `everything` applies them to the preflight too.
 */
const RUNS: readonly {
  readonly collections: Readonly<Record<string, HostileBehaviour>>;
  readonly otherwise: HostileBehaviour;
  readonly everything?: boolean;
}[] = [
  // A check fails at the first request the behaviour meets: each behaviour has the first request
  // of some GEN check (most checks begin with a read of the workspaces; others with a method the
  // workspaces do not allow, an unknown collection, the API's root or a submission).
  { collections: { workspaces: 'never-answers', submissions: 'stalls-after-headers' }, otherwise: 'drips-a-byte-a-second' },
  {
    collections: {
      'GET workspaces': 'redirects-elsewhere',
      'PATCH workspaces': 'closes-mid-body',
      no_such_collection_exists: 'answers-html',
      submissions: 'endless-body',
    },
    otherwise: 'json-labelled-text-plain',
  },
  // The lists the preflight reads answer 500 (`{}` there is no API at all: the run stops
  // inconclusive); a method or collection the API does not have, and the keys, answer `{}`.
  {
    collections: { 'PATCH workspaces': 'answers-empty-object', no_such_collection_exists: 'answers-empty-object', api_keys: 'answers-empty-object' },
    otherwise: 'answers-500',
    everything: true,
  },
];

/** How a failed check's reason names each behaviour. */
const REASONS: Record<HostileBehaviour, RegExp> = {
  'never-answers': /timeout: no response within 1000 ms/,
  'stalls-after-headers': /timeout: headers arrived but no complete body within 1000 ms \(0 bytes of body arrived\)/,
  'drips-a-byte-a-second': /timeout: headers arrived but no complete body within 1000 ms \([1-9]\d* bytes of body arrived\)/,
  'closes-mid-body': /connection reset: closed before the response was complete/,
  'answers-html': /not JSON \(text\/html\)/,
  'json-labelled-text-plain': /labelled text\/plain/,
  'endless-body': /response body too large: larger than \d+ bytes/,
  'answers-500': /answered 500/,
  'answers-empty-object': /answered 200|contains no key|not an error envelope|has no items array/,
  'redirects-elsewhere': /redirected with 307 to http:\/\/127\.0\.0\.1:\d+\/api\/v1\/.*; redirects are never followed/,
};

interface Outcome {
  readonly result: CliResult & { elapsedMs: number };
  readonly report: ConformanceDocument | null;
  readonly liveRunKeys: string[];
  /** Requests that met each behaviour. */
  readonly served: Map<HostileBehaviour, number>;
  /** Requests that reached the origin a redirect names. */
  readonly elsewhere: { method: string; url: string; authorization?: string }[];
}

const outcomes = new Map<HostileBehaviour, Outcome>();

async function play(run: (typeof RUNS)[number]): Promise<Outcome> {
  const elsewhere = await startRecorder();
  const behaviour = byCollection(run.collections, run.otherwise);
  const everything = run.everything ?? false;
  const target = await startHostile({ behaviour, redirectTo: elsewhere.url, redirectStatus: 307, ...(everything ? { spare: SPARE_NOTHING } : {}) });
  try {
    const result = await runAgainst(target, ARGS);
    let report: ConformanceDocument | null = null;
    try {
      report = readReport(result);
    } catch {
      report = null;
    }
    const served = new Map<HostileBehaviour, number>();
    for (const { behaviour } of target.requests) if (behaviour) served.set(behaviour, (served.get(behaviour) ?? 0) + 1);
    return { result, report, liveRunKeys: target.liveRunKeys(), served, elsewhere: [...elsewhere.seen] };
  } finally {
    await target.close();
    await elsewhere.close();
  }
}

beforeAll(async () => {
  await Promise.all(
    RUNS.map(async (run) => {
      const outcome = await play(run);
      for (const behaviour of [...Object.values(run.collections), run.otherwise]) outcomes.set(behaviour, outcome);
    }),
  );
}, 2 * RUN_BOUND_MS);

describe('a hostile target met by a whole run', () => {
  for (const [behaviour, reason] of Object.entries(REASONS) as [HostileBehaviour, RegExp][]) {
    test(`${behaviour}: failed checks name it, the run ends within ${RUN_BOUND_MS / 1000} s, exits 1 and leaves no key`, () => {
      const { result, report, liveRunKeys, served, elsewhere } = outcomes.get(behaviour)!;
      expect(
        served.get(behaviour) ?? 0,
        `no request met ${behaviour}; the run's last output:\n${result.stdout.slice(-1500)}\n${result.stderr.slice(-1500)}`,
      ).toBeGreaterThan(0);
      expect.soft(result.elapsedMs).toBeLessThan(RUN_BOUND_MS);
      expect(result.exitCode, result.stderr).toBe(1);
      expect(hasStackTrace(result.stdout + result.stderr)).toBe(false);
      const checks = report!.clauses.flatMap((c) => c.checks);
      const reasons = checks.filter((c) => c.status === 'fail').map((c) => c.reason ?? '');
      expect(reasons.join('\n')).toMatch(reason);
      // No request outlived its deadline, whatever the target did.
      const slowest = Math.max(...checks.flatMap((c) => c.evidence ?? []).map((e) => e.durationMs));
      expect(slowest).toBeLessThan(TIMEOUT_MS + DEADLINE_SLACK_MS);
      // The target's faults are findings, never "the suite broke".
      expect(checks.filter((c) => c.status === 'error').map((c) => `${c.clause}: ${c.reason}`)).toEqual([]);
      expect(liveRunKeys).toEqual([]);
      // Never followed: the other origin sees no request at all, let alone the key.
      expect(elsewhere).toEqual([]);
    });
  }

  test('keys created before the target misbehaved are deleted at the end: the ledger balances', () => {
    const { report } = outcomes.get('never-answers')!;
    expect(report!.resources.created.length).toBeGreaterThan(0);
    expect(report!.resources.removed.length).toBe(report!.resources.created.length);
  });
});
