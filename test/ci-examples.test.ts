import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './support/cli.js';

// Issue 23: the CI examples users copy clean up after a cancelled job, keep the reports whatever
// happened, and never resolve the suite's name from the registry at run time (it would receive
// the job's keys).

const read = (file: string) => readFileSync(join(ROOT, 'docs', file), 'utf8');

/** Every shell command the file runs. */
function commands(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .join('\n')
    .split(/\n|&&|;/)
    .map((part) => part.trim());
}

describe('the CI examples', () => {
  test.each(['github-actions.yml', 'gitlab-ci.yml'])(
    '%s runs the suite the lockfile installed, never one npx resolves at run time, and execs it so that it gets the signal and waits for its teardown',
    (file) => {
      const all = commands(read(file));
      // npx, and npm run, exit before the teardown on some signals (test/launchers.test.ts).
      expect(all.filter((c) => /\bnpx\b|\bnpm run\b/.test(c))).toEqual([]);
      const runs = all.filter((c) => /node_modules\/\.bin\/conformance\b(?! cleanup)/.test(c));
      expect(runs.length).toBeGreaterThan(0);
      for (const command of runs) expect(command).toMatch(/^exec node_modules\/\.bin\/conformance\b/);
      expect(all.some((c) => /node_modules\/\.bin\/conformance cleanup$/.test(c))).toBe(true);
      expect(read(file)).toMatch(/npm ci/);
    },
  );

  test('the examples, the action and the component run on a maintained LTS version of Node, the ones engines names', () => {
    const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    // Node 20 reached its end of life in April 2026; 22, 24 and 26 are the LTS versions the suite is tested on (.ci/node-lts).
    expect(engines).toBe('^22.13.0 || >=24');
    expect(read('github-actions.yml')).toMatch(/node-version: (22|24|26)\b/);
    expect(read('gitlab-ci.yml')).toMatch(/image: node:(22|24|26)\b/);
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: { 'node-version': { default: string } } };
    expect(action.inputs['node-version'].default).toMatch(/^(22|24|26)$/);
    expect(readFileSync(join(ROOT, 'templates/conformance.yml'), 'utf8')).toMatch(/default: node:(22|24|26)\n/);
    for (const text of [read('github-actions.yml'), read('gitlab-ci.yml')]) expect(text).not.toMatch(/node-version: 20|node:20/);
  });

  test('github-actions.yml parses, and its cleanup and upload steps run whatever happened, cancellation included', () => {
    const workflow = parse(read('github-actions.yml')) as { jobs: Record<string, { steps: { if?: string; run?: string; uses?: string }[] }> };
    const steps = Object.values(workflow.jobs)[0]!.steps;
    const run = steps.findIndex((s) => /conformance( --baseline|$)/m.test(s.run ?? ''));
    const cleanup = steps.findIndex((s) => /conformance cleanup/.test(s.run ?? ''));
    const upload = steps.findIndex((s) => s.uses?.startsWith('actions/upload-artifact'));
    expect(run).toBeGreaterThan(-1);
    expect(cleanup).toBeGreaterThan(run);
    expect(steps[cleanup]!.if).toBe('always()');
    expect(steps[upload]!.if).toBe('always()');
  });

  test('gitlab-ci.yml parses, cleans up in after_script and keeps artifacts and the JUnit report always', () => {
    const job = Object.values(
      parse(read('gitlab-ci.yml')) as Record<string, { after_script: string[]; artifacts: { when: string; reports: { junit: string } } }>,
    )[0]!;
    expect(job.after_script.join('\n')).toMatch(/conformance cleanup/);
    expect(job.artifacts.when).toBe('always');
    expect(job.artifacts.reports.junit).toMatch(/junit\.xml$/);
  });
});
