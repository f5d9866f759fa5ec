import { expect, test } from 'vitest';
import { runAgainstReference } from './support/cli.js';

// A finding rests on evidence, not on a guess (issue 30): a wrong profile fact is named where it
// would explain a failure, and never turns into a finding about another clause.

test("wrong submission filter names on a target that ignores unknown parameters: no AUTH-6 leak, SUB-4's reason names the profile fact", async () => {
  const run = await runAgainstReference({}, ['--only', 'AUTH-6,SUB-4', '--seed', '1'], (served) => ({
    ...served,
    submissions: { ...served.submissions, listFilters: { workspace: 'workspace', taxonomy: 'taxonomy' } },
  }));
  const auth6 = run.report.clauses.find((c) => c.id === 'AUTH-6')!;
  expect(auth6.status, auth6.reason).toBe('pass');
  const sub4 = run.report.clauses.find((c) => c.id === 'SUB-4')!;
  expect(sub4.status).toBe('fail');
  expect(sub4.reason).toMatch(
    /^profile fact submissions\.listFilters\.workspace = workspace: every value gave the same \d+ items as the unfiltered list \(.*\); is the name right\?/,
  );
});

test('a failure a wrong profile fact would explain names the fact: a retrieval path, the key prefix', async () => {
  const run = await runAgainstReference({}, ['--only', 'RES-4,AUTH-5'], (served) => ({
    ...served,
    keyPrefix: 'xk_',
    paths: { ...served.paths, record: '/api/v1/record/{id}' },
  }));
  const reason = (id: string) => run.report.clauses.find((c) => c.id === id)?.reason ?? '';
  expect(reason('RES-4')).toMatch(/answered 404 \(profile fact paths\.record = \/api\/v1\/record\/\{id\}: is the path right\?\)$/);
  expect(reason('AUTH-5')).toMatch(/\(profile fact keyPrefix = xk_: is it right\?\)$/);
});

test('a well-formed submission refused under a wrong query parameter name names the profile fact (SUB-1)', async () => {
  const run = await runAgainstReference({}, ['--only', 'SUB-1'], (served) => ({
    ...served,
    submissions: { ...served.submissions, workspaceQueryParam: 'workspace' },
  }));
  const sub1 = run.report.clauses.find((c) => c.id === 'SUB-1')!;
  expect(sub1.status).toBe('fail');
  expect(sub1.reason).toMatch(
    /answered 400, expected 201 \(profile fact submissions\.workspaceQueryParam = workspace, profile fact submissions\.sampleRow = null: are they right\?\)/,
  );
});
