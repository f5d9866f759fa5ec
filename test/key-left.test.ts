import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { documentOnly, runAgainstReference } from './support/cli.js';

// Issue 24: a run that leaves a live key says so where its verdict is read, and every run says in
// one line what it leaves on the target.

test('a run that cannot delete its probe key says "(key left)" on the verdict line, in summary.md and in conformance.json', async () => {
  // No deletion anywhere: the document-only run's probe key cannot be revoked, and stays.
  const { stdout, report, reportDir } = await runAgainstReference(
    {
      modify: ({ app }) =>
        app.addHook('onRequest', async (req, reply) => {
          if (req.method === 'DELETE')
            await reply.code(405).send({ error: { type: 'invalid_request_error', code: null, message: 'No.', param: null, path: null } });
        }),
    },
    ['--only', 'KEY'],
    documentOnly,
  );
  expect(report.because).toMatch(/\(key left\)$/);
  expect(stdout).toMatch(/^verdict: .*\(key left\)$/m);
  const summary = readFileSync(join(reportDir, 'summary.md'), 'utf8');
  expect(summary).toContain('(key left)');
  expect(summary).toContain('left on the target: 0 submissions (no deletion in the API); 1 key.');
  expect(stdout).toContain('left on the target: 0 submissions (no deletion in the API); 1 key');
}, 120_000);

test('a run that deletes every key it made says so in one line, with the submissions it left', async () => {
  const { stdout, report, reportDir } = await runAgainstReference({}, ['--only', 'KEY-1,SUB-1']);
  expect(report.because).not.toContain('(key left)');
  const submissions = report.resources.created.filter((e) => e.kind === 'submission').length;
  expect(submissions).toBeGreaterThan(0);
  const line = `left on the target: ${submissions} submission${submissions === 1 ? '' : 's'} (no deletion in the API); 0 keys`;
  expect(stdout.trimEnd().split('\n').slice(-3).join('\n')).toContain(line);
  expect(readFileSync(join(reportDir, 'summary.md'), 'utf8')).toContain(`${line}.`);
}, 120_000);
