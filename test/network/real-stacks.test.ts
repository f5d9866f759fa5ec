import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference } from '../../reference/server.js';
import type { ConformanceDocument } from '../../src/report/document.js';
import { readReport, runCli, type CliResult } from '../support/cli.js';
import { explainRun } from '../support/explain-run.js';
import { FRONT_END_WINDOW_SECONDS, FRONT_ENDS, type FrontEndName } from '../support/front-ends/index.js';

// Tolerance on real stacks: the reference behind each front end users put an API behind, from
// Debian's packages, with its defaults and an operator's usual proxy lines (test/support/front-ends/).
// Each is a conformant variant like any other: judged conformant, with no finding for anything HTTP
// allows (Apache's, lighttpd's and Varnish's 206 to a range), and where the front end answers for
// the API in its own words (its HTML page for a URL it refuses) a GEN-3 warning naming it, at most.
// nginx has its own test (behind-nginx.test.ts); uvicorn serves a blind implementation
// (blind-implementation.test.ts, `asgi`). docs/judging.md lists the stacks and why each is here.

const MISSING = Object.entries(FRONT_ENDS)
  .filter(([, stack]) => !existsSync(stack.binary))
  .map(([name, stack]) => `${name} (${stack.binary})`);
// In CI a missing front end fails the test; on a developer's machine it is skipped with this reason.
const SKIP = MISSING.length > 0 && !process.env.CI;

interface StackRun {
  readonly result: CliResult;
  readonly report: ConformanceDocument | undefined;
}

const runs = new Map<FrontEndName, Promise<StackRun>>();
const running: { close(): Promise<void> }[] = [];

beforeAll(() => {
  if (!SKIP && MISSING.length > 0) throw new Error(`missing: ${MISSING.join(', ')}; .ci/run installs them`);
});

afterAll(async () => {
  await Promise.allSettled(running.map((server) => server.close()));
});

/**
 * One whole run behind the front end, against a reference of its own: runs beside each other
 * share neither a key list nor the per-IP budget of requests without a key.
 */
function runBehind(name: FrontEndName): Promise<StackRun> {
  let run = runs.get(name);
  if (!run) {
    run = (async () => {
      const reference = await startReference({ windowSeconds: FRONT_END_WINDOW_SECONDS });
      running.push(reference);
      const profileFile = join(mkdtempSync(join(tmpdir(), 'profile-')), 'profile.json');
      writeFileSync(profileFile, JSON.stringify(reference.profile));
      const stack = await FRONT_ENDS[name].start(reference.url);
      running.push(stack);
      const result = await runCli(['--profile', profileFile, '--property-runs', '25'], {
        CONFORMANCE_BASE_URL: stack.url,
        CONFORMANCE_API_KEY: reference.keys.main,
        CONFORMANCE_OTHER_ACCOUNT_API_KEY: reference.keys.other,
      });
      await stack.close();
      await reference.close();
      const report = existsSync(join(result.reportDir, 'conformance.json')) ? readReport(result) : undefined;
      return { result, report };
    })();
    runs.set(name, run);
  }
  return run;
}

const explain = ({ result, report }: StackRun) => explainRun(result, report);

describe.skipIf(SKIP).concurrent(`a conformant server behind each real front end${SKIP ? ` (skipped: missing ${MISSING.join(', ')})` : ''}`, () => {
  for (const [name, stack] of Object.entries(FRONT_ENDS) as [FrontEndName, (typeof FRONT_ENDS)[FrontEndName]][]) {
    test(`${name} is judged conformant, warned at most where it answered for the API in its own words (${stack.reason})`, async () => {
      const run = await runBehind(name);
      expect(run.result.exitCode, explain(run)).toBe(0);
      expect(run.report?.verdict, explain(run)).toBe('conformant');
      expect(run.report!.suiteFaults, explain(run)).toEqual([]);
      const flagged = run.report!.clauses.filter((c) => c.status !== 'pass' && c.status !== 'not_applicable');
      // The one warning a front end may earn: GEN-3, naming it, for its own page to a URL it refused.
      for (const clause of flagged) {
        expect(`${clause.id} ${clause.status}`, explain(run)).toBe('GEN-3 warn');
        expect(clause.reason, explain(run)).toMatch(/by the front end "[^"]+" before the API/);
      }
    });
  }
});
