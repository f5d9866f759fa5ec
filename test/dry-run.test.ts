import { expect, test } from 'vitest';
import { readReport, ROOT, runCli } from './support/cli.js';
import { startReference } from '../reference/server.js';
import { loadProfile } from '../src/profile/profile.js';
import { estimate, keyPlan, loadEstimates, measuredStrength } from '../src/run/estimates.js';
import { dryRunLines } from '../src/run/dry-run.js';
import { propertyBudget } from '../src/check/property-budget.js';

test('--dry-run stops after the preflight and prints the checks, requests and time it would take', async () => {
  const methods: string[] = [];
  const reference = await startReference({ windowSeconds: 60, modify: ({ app }) => app.addHook('onRequest', async (req) => void methods.push(req.method)) });
  try {
    const run = await runCli(['--dry-run'], { CONFORMANCE_BASE_URL: reference.url, CONFORMANCE_API_KEY: reference.keys.main });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/dry run: \d+ checks would run/);
    expect(run.stdout).toMatch(/time: at 100 a key and 20 without a key per 60 s, at least \d+ window/);
    // Without a profile only the document's facts are known: the clauses needing more are named.
    expect(run.stdout).toMatch(/RES-4: not declared: retrieval paths/);
    expect(methods.every((m) => m === 'GET')).toBe(true);
    expect(methods.length).toBeLessThan(10);
  } finally {
    await reference.close();
  }
});

test("the plan counts generated cases at the run's property budget, and fixed cases once", () => {
  const profile = loadProfile(`${ROOT}profiles/reference.json`).profile;
  const input = { profile, selection: { only: [], skip: [] }, readOnly: false, hasOtherAccountKey: true };
  const estimates = loadEstimates();
  const generated = estimates.checks.reduce((sum, c) => sum + (c.propertyRequests?.main ?? 0), 0);
  expect(generated).toBeGreaterThan(0);
  const at = measuredStrength(estimates);
  const measured = estimate(estimates, input, 1, at).requests.main;
  const tenfold = estimate(estimates, input, 1, { ...at, propertyRuns: at.propertyRuns * 10 }).requests.main;
  expect(tenfold - measured).toBe(generated * 9);
  // Full strength whatever the limits: the same budget as the local run.
  expect(propertyBudget()).toBe(100);
});

test("the plan grows what is drawn (the explorer's sequences, the pairs' rows beyond the array) with --explore, and no other check's", () => {
  const profile = loadProfile(`${ROOT}profiles/reference.json`).profile;
  const input = { profile, selection: { only: [], skip: [] }, readOnly: false, hasOtherAccountKey: true };
  const estimates = loadEstimates();
  const at = measuredStrength(estimates);
  const drawing = estimates.checks.filter((c) => c.exploreRequests);
  expect(drawing.map((c) => `${c.clause} ${c.key}`).sort()).toEqual(['GEN-3 pairs', 'KEY-1 explored-lifecycle']);
  // The budgets the estimate sums: an unknown or malformed key's requests are on none of them.
  const drawn = drawing.reduce(
    (sum, c) => sum + (c.exploreRequests!.main ?? 0) + (c.exploreRequests!.other ?? 0) + (c.exploreRequests!.created ?? 0) + (c.exploreRequests!.none ?? 0),
    0,
  );
  expect(drawn).toBeGreaterThan(0);
  const requests = (explore: number) => {
    const { main, other, created, anonymous } = estimate(estimates, input, 1, { ...at, explore }).requests;
    return main + other + created + anonymous;
  };
  // Ten times the sequences: nine times the drawn ones' requests more, within rounding per credential.
  expect(Math.abs(requests(at.explore * 10) - requests(at.explore) - drawn * 9)).toBeLessThanOrEqual(3);
  expect(requests(0)).toBeLessThan(requests(at.explore));
  const keys = (explore: number) => keyPlan(estimates, input, { ...at, explore }).clauses.find((c) => c.clause === 'KEY-1')!.keys;
  // Each sequence drawn may create MOST_LIVE keys, its opening one included.
  expect(keys(40) - keys(0)).toBe(40 * 3);
});

test('an embedded run plans on the key pool', async () => {
  const run = await runCli(['--dry-run']);
  expect(run.exitCode).toBe(0);
  expect(run.stdout).toMatch(/keys: up to \d+, the configured one and \d+ the run creates/);
  expect(run.stdout).toMatch(/at 100 cases a property/);
});

test('--dry-run prints the write plan (keys and submissions, and what for) and a run with the same settings keeps to it', async () => {
  const settings = ['--only', 'GEN,KEY,SUB', '--seed', '7'];
  const dry = await runCli(['--dry-run', ...settings]);
  expect(dry.exitCode, dry.stderr).toBe(0);
  const plan = /write plan: at most (\d+) key\(s\), each deleted again by the run, and about (\d+) submission\(s\) \(at most (\d+), --max-submissions\)/.exec(
    dry.stdout,
  );
  expect(plan, dry.stdout).not.toBeNull();
  const [plannedKeys, , submissionCap] = plan!.slice(1).map(Number) as [number, number, number];
  expect(dry.stdout).toMatch(/ {2}keys: \d+ for the key pool .*; \d+ by the checks of KEY-1 \(\d+\), /);
  const run = await runCli(settings);
  const report = readReport(run);
  expect(report.verdict, run.stdout).toBe('conformant');
  const keys = report.resources.created.filter((e) => e.kind === 'api_key');
  const submissions = report.resources.created.filter((e) => e.kind === 'submission');
  expect(keys.length).toBeGreaterThan(0);
  expect(keys.length).toBeLessThanOrEqual(plannedKeys);
  expect(submissions.length).toBeGreaterThan(0);
  expect(submissions.length).toBeLessThanOrEqual(submissionCap);
}, 240_000);

// The explorer's header catalogue (GEN-1) is a hundred requests more: left out, a few clauses' dozen requests need no pool.
test('a run of a few general rules alone plans no key', async () => {
  const run = await runCli(['--dry-run', '--only', 'GEN-2,GEN-4']);
  expect(run.stdout).toMatch(/write plan: at most 0 key\(s\)/);
  expect(run.stdout).toMatch(/keys: the configured one alone/);
});

test("the plan names the pairs' covering array and the rows drawn beyond it, which --explore sets, where the pairs run", () => {
  const profile = loadProfile(`${ROOT}profiles/reference.json`).profile;
  const input = { profile, selection: { only: [], skip: [] }, readOnly: false, hasOtherAccountKey: true };
  const pairs = (extra: object) => dryRunLines({ ...input, ...extra }).filter((line) => line.startsWith('pairs: '));
  const [line] = pairs({});
  expect(line).toMatch(
    /^pairs: every pair of what the run varies .* in about \d+ requests, a covering array of strength 2 drawn from the seed, and about [1-9]\d* for rows drawn beyond it \(--explore \d+\)$/,
  );
  expect(pairs({ explore: 0 })[0]).toMatch(/and about 0 for rows drawn beyond it \(--explore 0\)$/);
  expect(pairs({ selection: { only: ['PAG'], skip: [] } })).toEqual([]);
});
