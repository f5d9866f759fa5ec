import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ReferenceApp } from '../reference/server.js';
import { sendError } from '../reference/errors.js';
import type { ConformanceDocument } from '../src/report/document.js';
import { schemaErrors } from '../src/schemas.js';
import { documentOnly, runAgainstReference } from './support/cli.js';

/** A deployment whose plan accepts at most `rows` rows a submission: 422 plan_limit_exceeded past it. */
const rowLimit =
  (rows: number) =>
  ({ app }: ReferenceApp) =>
    app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'POST' || !req.url.startsWith('/api/v1/submissions')) return;
      const sent = (req.body as { rows?: unknown } | null)?.rows;
      if (Array.isArray(sent) && sent.length > rows)
        return sendError(reply, 422, 'plan_limit_exceeded', `Your plan accepts at most ${rows} rows a submission.`, { code: 'limit_exceeded', param: 'rows' });
    });

/** A deployment (or its front end) that refuses a request body past `bytes` with 413. */
const bodyLimit =
  (bytes: number) =>
  ({ app }: ReferenceApp) =>
    app.addHook('onRequest', async (req, reply) => {
      if (Number(req.headers['content-length'] ?? 0) > bytes)
        return sendError(reply, 413, 'invalid_request_error', 'The request body is too large.', { code: 'body_too_large' });
    });

const LIMITS = [
  [
    'rows a submission (422 plan_limit_exceeded past 30)',
    rowLimit(30),
    /^the deployment accepts fewer than (\d+) rows a submission \(\1 rows refused: 422 plan_limit_exceeded; \d+ rows accepted\)$/,
  ],
  [
    "a body's size (413 past 64 KB)",
    bodyLimit(64 * 1024),
    /^the deployment accepts a submission body smaller than [\d.]+ KB \([\d.]+ KB refused: 413; [\d.]+ KB accepted\)$/,
  ],
] as const;

/** Clauses that failed or warned, with their reasons. */
const findings = (report: ConformanceDocument) => report.clauses.filter((c) => c.status === 'fail' || c.status === 'warn').map((c) => `${c.id}: ${c.reason}`);

describe('a plan limit the document leaves open is learnt, not judged', () => {
  test.each(LIMITS)("%s, under the reference's profile: conformant, no warning, the limit learnt and the rows judged said", async (_what, modify, learnt) => {
    const run = await runAgainstReference({ modify }, ['--only', 'SUB', '--seed', '1']);
    expect(findings(run.report)).toEqual([]);
    expect(run.report.verdict).toBe('conformant');
    expect(run.exitCode).toBe(0);
    expect(
      run.report.learnt?.some((l) => learnt.test(l)),
      JSON.stringify(run.report.learnt),
    ).toBe(true);
    // The limit and the cap together cannot carry every generated row: the report says how many were judged.
    expect(run.report.learnt?.some((l) => /^SUB-5 generated-rows: \d+ of \d+ rows judged: /.test(l))).toBe(true);
    expect(run.stdout).toMatch(/learnt: the deployment accepts/);
    expect(readFileSync(join(run.reportDir, 'summary.md'), 'utf8')).toMatch(/Learnt from the deployment/);
    expect(run.report.resources.created.filter((e) => e.kind === 'submission').length).toBeLessThanOrEqual(10);
    // The check's own record says it too, in the report's published shape.
    const generated = run.report.clauses.flatMap((c) => c.checks).find((c) => c.key === 'generated-rows')!;
    expect(generated.planLimits?.some((l) => learnt.test(l))).toBe(true);
    expect(generated.rowsJudged?.judged).toBeLessThan(generated.rowsJudged!.of);
    expect(schemaErrors('conformance-report', run.report)).toEqual([]);
  });

  test('where the cap leaves room, every generated row is judged past the limit, and only the limit is said', async () => {
    const run = await runAgainstReference({ modify: rowLimit(30) }, ['--only', 'SUB-5', '--seed', '1', '--max-submissions', '20']);
    expect(findings(run.report)).toEqual([]);
    expect(run.report.learnt?.some((l) => LIMITS[0][2].test(l))).toBe(true);
    expect(run.report.learnt?.filter((l) => / rows judged: /.test(l))).toEqual([]);
  });

  test.each(LIMITS)('%s, under the document-only profile: conformant, no warning', async (_what, modify) => {
    const run = await runAgainstReference({ modify }, ['--only', 'GEN,SUB', '--property-runs', '20'], documentOnly);
    expect(findings(run.report)).toEqual([]);
    expect(run.report.verdict).toBe('conformant');
  });
});
