import fc from 'fast-check';
import { beforeAll, expect, test } from 'vitest';
import { mutantNamed } from '../mutants/index.js';
import type { ReferenceApp } from '../reference/server.js';
import type { ConformanceDocument } from '../src/report/document.js';
import { fakersReady, rowData } from '../suites/arbitraries/rowData.js';
import { readReport, runAgainstReference, runCli, sharedRun } from './support/cli.js';

// Generated rows speak in seventeen locales, loaded apart from the arbitrary's module.
beforeAll(fakersReady);

// Submissions cannot be deleted under the API document, so a run keeps to a cap on those it
// creates (`--max-submissions`, default 10, issue 24): these runs count them at the reference and
// in the report. Each test starts its own target (or reads the shared whole run): they run side by
// side.

/** Counts at the reference the submissions it created (answered 201) and the rows they carried. */
function countCreated(): { created: number; rows: number; modify: (reference: ReferenceApp) => void } {
  const counted = {
    created: 0,
    rows: 0,
    modify: ({ app }: ReferenceApp) =>
      app.addHook('onResponse', async (req, reply) => {
        if (req.method !== 'POST' || !req.url.startsWith('/api/v1/submissions') || reply.statusCode !== 201) return;
        counted.created++;
        counted.rows += ((req.body as { rows?: unknown[] }).rows ?? []).length;
      }),
  };
  return counted;
}

const createdIn = (report: ConformanceDocument) => report.resources.created.filter((e) => e.kind === 'submission').length;

/** Checks left out for the cap, by the reason they give. */
const leftOutForCap = (report: ConformanceDocument) =>
  report.clauses.flatMap((c) => c.checks).filter((c) => c.status === 'not_applicable' && c.cause === 'max-submissions');

test.concurrent('a full default run against the embedded reference creates at most 10 submissions, and the report counts each', async () => {
  // The same whole run as report-files.test.ts's, made once.
  const run = await sharedRun([]);
  expect(run.exitCode).toBe(0);
  const report = readReport(run);
  const created = createdIn(report);
  expect(created).toBeGreaterThan(0);
  expect(created).toBeLessThanOrEqual(10);
  // Every clause at full strength: nothing left out for the cap.
  expect(leftOutForCap(report)).toEqual([]);
  const byChecks = report.clauses.flatMap((c) => c.checks).reduce((sum, c) => sum + (c.submissions ?? 0), 0);
  expect(byChecks).toBe(created);
});

test.concurrent('a default run, counted at the reference, creates at most 10 submissions carrying every generated row', async () => {
  const counted = countCreated();
  const run = await runAgainstReference({ modify: counted.modify }, ['--only', 'SUB,AUTH', '--seed', '1']);
  expect(run.exitCode).toBe(0);
  expect(counted.created).toBeLessThanOrEqual(10);
  expect(createdIn(run.report)).toBe(counted.created);
  // SUB-1's sample row, SUB-4's two, the boundary cases' 16 rows, the 6 edge rows, and the 100
  // generated cases' rows (1 to 3 each): the same cases as a submission per case would carry.
  expect(counted.rows).toBeGreaterThan(1 + 2 + 16 + 6 + 100);
});

test.concurrent('--max-submissions 0 makes the checks that create a submission not applicable, naming the setting', async () => {
  const counted = countCreated();
  const run = await runAgainstReference({ modify: counted.modify }, ['--only', 'SUB,AUTH', '--max-submissions', '0']);
  expect(counted.created).toBe(0);
  expect(createdIn(run.report)).toBe(0);
  const leftOut = leftOutForCap(run.report);
  expect(new Set(leftOut.map((c) => c.clause))).toEqual(new Set(['SUB-1', 'SUB-4', 'SUB-5']));
  for (const c of leftOut) expect(c.reason).toBe('--max-submissions 0: no submission may be created');
  // The checks of bodies that must be refused still run: they create nothing.
  const sub2 = run.report.clauses.find((c) => c.id === 'SUB-2')!;
  expect(sub2.status).toBe('pass');
  // Leaving out clauses by a setting of the run's own makes the run incomplete.
  expect(run.report.complete).toBe(false);
});

test.concurrent('--max-submissions 3 creates at most 3 submissions, and the checks with no room left say so', async () => {
  const counted = countCreated();
  const run = await runAgainstReference({ modify: counted.modify }, ['--only', 'SUB,AUTH', '--max-submissions', '3']);
  expect(counted.created).toBeLessThanOrEqual(3);
  expect(createdIn(run.report)).toBe(counted.created);
  const leftOut = leftOutForCap(run.report);
  expect(leftOut.length).toBeGreaterThan(0);
  for (const c of leftOut) expect(c.reason).toMatch(/^--max-submissions 3: /);
  expect(run.report.clauses.filter((c) => c.status === 'fail' || c.status === 'warn')).toEqual([]);
});

test.concurrent('--dry-run names the submissions the run will create and the clauses that need them', async () => {
  const run = await runCli(['--dry-run']);
  expect(run.exitCode).toBe(0);
  expect(run.stdout).toMatch(/submissions: about (\d+), never more than 10 \(--max-submissions; they cannot be deleted\), for GEN-3, SUB-1, SUB-4, SUB-5/);
  const capped = await runCli(['--dry-run', '--max-submissions', '0']);
  expect(capped.stdout).toMatch(
    /submissions: none \(--max-submissions 0: no submission may be created; the checks of GEN-3, SUB-1, SUB-4, SUB-5 that create one are not applicable, or send no request that may\)/,
  );
});

/** How deep objects and arrays nest in a value: the fault of the deep-nesting-500 mutant is past 16. */
const depth = (value: unknown): number => (typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depth)) : 0);

test.concurrent(
  'a generated case that fails is bisected out of its submission and reported as fast-check finds it alone: shrunk input, seed and path',
  async () => {
    const run = await runAgainstReference({ modify: mutantNamed('deep-nesting-500').modify }, ['--only', 'SUB-5', '--seed', '3']);
    const generated = run.report.clauses.flatMap((c) => c.checks).find((c) => c.title.startsWith('generated well-formed rows'))!;
    expect(generated.status).toBe('warn');
    // One case, not a batch of them: the reason names generated rows, the input is one case.
    expect(generated.reason).toMatch(/^a submission of generated rows answered 500/);
    expect(generated.reason).not.toMatch(/cases together|--max-submissions/);
    expect(generated.repro?.seed).toBe(3);
    const counterexample = JSON.parse(generated.repro!.counterexample!) as { [key: string]: unknown }[];
    expect(Math.max(...counterexample.map(depth))).toBeGreaterThan(16);
    // The same property run a request per case (fast-check alone, judging as the mutant does) fails
    // first on the same case and shrinks it along the same path to the same input.
    const alone = fc.check(
      fc.property(fc.array(rowData(), { minLength: 1, maxLength: 3 }), (rows) => !rows.some((data) => depth(data) > 16)),
      { seed: 3, numRuns: 100 },
    );
    expect(generated.repro?.path).toBe(alone.counterexamplePath);
    expect(generated.repro?.counterexample).toBe(fc.stringify(alone.counterexample?.[0]));
    // Created: the batches that passed and the shrunk cases that did, never more than the cap.
    expect(createdIn(run.report)).toBeLessThanOrEqual(10);
  },
);

/** A target that creates a submission from every POST, whatever its body: what a lenient one does. */
function acceptingEverySubmission(): { accepted: number; modify: (reference: ReferenceApp) => void } {
  const lenient = {
    accepted: 0,
    modify: ({ app }: ReferenceApp) =>
      app.addHook('onRequest', async (req, reply) => {
        if (req.method !== 'POST' || !req.url.startsWith('/api/v1/submissions')) return;
        lenient.accepted++;
        await reply.code(201).send({ id: `sub_lenient_${lenient.accepted}` });
      }),
  };
  return lenient;
}

test.concurrent('a lenient target that accepts the bodies GEN-3 and GEN-4 send to be refused: the report counts every submission it made', async () => {
  const lenient = acceptingEverySubmission();
  const run = await runAgainstReference({ modify: lenient.modify }, ['--only', 'GEN-3,GEN-4']);
  expect(lenient.accepted).toBeGreaterThan(0);
  expect(createdIn(run.report)).toBe(lenient.accepted);
});

test.concurrent(
  'what a lenient target accepted of the bodies meant to be refused takes its place under --max-submissions: the checks that create one after find no room',
  async () => {
    const lenient = acceptingEverySubmission();
    const run = await runAgainstReference({ modify: lenient.modify }, ['--only', 'GEN-4,SUB-1', '--max-submissions', '1']);
    // GEN-4's malformed bodies were accepted (a finding, and submissions that stay): the one place is taken.
    expect(lenient.accepted).toBeGreaterThan(0);
    expect(createdIn(run.report)).toBe(lenient.accepted);
    expect(leftOutForCap(run.report).map((c) => c.clause)).toContain('SUB-1');
  },
);

test.concurrent("a profile's submissions.workspaceId sends every submission of the run to that workspace", async () => {
  let chosen = '';
  const workspaces: string[] = [];
  const run = await runAgainstReference(
    {
      modify: ({ app, state }) => {
        // The main account's last workspace: not the first of the list, the default without the fact.
        chosen = state.store.accounts[0]!.data.workspaces.at(-1)!.id;
        app.addHook('onResponse', async (req, reply) => {
          if (req.method === 'POST' && req.url.startsWith('/api/v1/submissions') && reply.statusCode === 201)
            workspaces.push((req.body as { workspace_id: string }).workspace_id);
        });
      },
    },
    ['--only', 'SUB', '--seed', '1'],
    (served) => ({ ...served, submissions: { ...served.submissions, workspaceId: chosen } }),
  );
  expect(run.exitCode).toBe(0);
  expect(workspaces.length).toBeGreaterThan(0);
  expect(new Set(workspaces)).toEqual(new Set([chosen]));
});
