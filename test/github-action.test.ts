import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { referenceProfile } from '../reference/server.js';
import { ANNOTATIONS_PER_KIND, annotationLines, boundedSummary, splitArguments } from '../src/ci/github-step.js';
import { reportStep } from '../src/cli/commands/ci.js';
import type { ConformanceDocument } from '../src/report/document.js';
import { ROOT } from './support/cli.js';
import { childEnv, scratch, targetEnv, withMutants, withReference } from './support/commands.js';
import { ctrfProblems } from './support/report-formats.js';
import { slowReference } from './support/spawned.js';

// Issue 34: the action's steps, run as GitHub runs a composite action's steps: the inputs
// expanded, $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT files, `if: always()` after a failure or a
// cancellation. The install step is this clone's own node_modules; setup-node is this Node.

interface ActionStep {
  id: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
};

interface StepsRun {
  readonly outputs: Record<string, string>;
  readonly summary: string;
  readonly log: Record<string, string>;
  readonly status: Record<string, number>;
}

/** Runs the action's steps in `cwd`; `cancel` signals the run step (as GitHub does) once its output matches. */
async function runAction(inputs: Record<string, string>, env: Record<string, string>, cwd: string, cancel?: RegExp): Promise<StepsRun> {
  const values = { ...Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? ''])), ...inputs };
  const expand = (text: string) =>
    text.replace(/\$\{\{\s*(inputs|github)\.([\w-]+)\s*\}\}/g, (_, scope: string, name: string) =>
      scope === 'inputs' ? values[name]! : name === 'action_path' ? ROOT : '',
    );
  const summaryFile = join(cwd, 'step-summary.md');
  const outputFile = join(cwd, 'github-output');
  writeFileSync(summaryFile, '');
  writeFileSync(outputFile, '');
  const log: Record<string, string> = {};
  const status: Record<string, number> = {};
  let failed = false;
  for (const step of action.runs.steps) {
    if (step.uses || step.id === 'install') continue;
    if (failed && step.if !== 'always()') continue;
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v)]));
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', expand(step.run!)], {
      cwd,
      env: childEnv({
        ...env,
        ...stepEnv,
        GITHUB_ACTIONS: 'true',
        GITHUB_ACTION_PATH: ROOT,
        GITHUB_WORKSPACE: cwd,
        GITHUB_STEP_SUMMARY: summaryFile,
        GITHUB_OUTPUT: outputFile,
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    let signalled = false;
    const take = (chunk: Buffer) => {
      text += chunk.toString();
      if (cancel && step.id === 'run' && !signalled && cancel.test(text)) {
        signalled = true;
        child.kill('SIGINT');
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    status[step.id] = await new Promise<number>((done) => child.on('close', (code) => done(code ?? 2)));
    log[step.id] = text;
    if (status[step.id] !== 0) failed = true;
  }
  const outputs = Object.fromEntries(
    readFileSync(outputFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return { outputs, summary: readFileSync(summaryFile, 'utf8'), log, status };
}

function annotations(text: string, kind: string): string[] {
  return text.split('\n').filter((l) => l.startsWith(`::${kind} `));
}

describe('the GitHub Action', () => {
  test("is a composite action whose outputs are the run step's and whose cleanup runs always; it installs from its own files", () => {
    expect(action.runs.using).toBe('composite');
    const steps = action.runs.steps;
    expect(steps.find((s) => s.id === 'install')?.run).toMatch(/^npm ci\b/);
    expect(steps.find((s) => s.id === 'cleanup')?.if).toBe('always()');
    expect(Object.values(action.outputs).every((o) => o.value.startsWith('${{ steps.run.outputs.'))).toBe(true);
    // Inputs reach the shell as environment variables only, never spliced into a line.
    for (const step of steps) expect(step.run ?? '', step.id).not.toMatch(/\$\{\{/);
    expect(readFileSync(join(ROOT, 'action.yml'), 'utf8')).not.toMatch(/\bnpx\b|npm (install|i) [a-z]/);
  });

  test('a non-conformant run: outputs set, annotations per finding, the summary on the page, cleanup against the target', async () => {
    await withReference(withMutants('workspace-description-null', 'version-prefix-ignored'), async (target) => {
      const cwd = scratch();
      mkdirSync(join(cwd, 'conformance'));
      writeFileSync(join(cwd, 'conformance/profile.json'), JSON.stringify(target.profile));
      const { CONFORMANCE_BASE_URL: baseUrl, ...keys } = targetEnv(target);
      const run = await runAction({ 'base-url': baseUrl!, profile: 'conformance/profile.json', args: "--only 'GEN,RES' --seed 7" }, keys, cwd);
      expect(run.status, run.log.run).toEqual({ run: 1, cleanup: 0 });
      expect(run.outputs).toEqual({ verdict: 'non-conformant', 'exit-status': '1', 'report-dir': join(cwd, 'conformance-reports') });
      expect(annotations(run.log.run!, 'error').length).toBeGreaterThan(0);
      expect(annotations(run.log.run!, 'error').some((l) => l.startsWith('::error title=RES-1 (MUST)%3A '))).toBe(true);
      expect(run.summary).toMatch(/^## API v1 conformance: ❌ non-conformant/);
      expect(run.log.cleanup).toMatch(/^cleanup: nothing to delete on /m);
      expect(run.log.run).not.toContain(target.keys.main);
    });
  }, 120_000);

  test('a cancelled run: the run step exits 130 with its outputs, the cleanup step still runs, nothing is left', async () => {
    const ref = await slowReference(20, 40, referenceProfile());
    try {
      const run = await runAction(
        { 'base-url': ref.target.url, profile: ref.profileFile, args: '--max-keys 10 --skip RATE' },
        { CONFORMANCE_API_KEY: ref.target.keys.main },
        ref.cwd,
        /waiting \d+ s more for/,
      );
      expect(run.status, JSON.stringify(run.outputs)).toEqual({ run: 130, cleanup: 0 });
      expect(run.outputs.verdict).toBe('inconclusive');
      expect(run.outputs['exit-status']).toBe('130');
      expect(run.summary).toMatch(/interrupted by SIGINT/);
      expect(run.log.cleanup).toMatch(/^cleanup: /m);
      expect(ref.live()).toEqual([]);
      expect(ctrfProblems(run.outputs['report-dir']!)).toEqual([]);
    } finally {
      await ref.target.close();
    }
  }, 180_000);
});

describe('the action step with hundreds of findings', () => {
  /** A report with `n` failed and `n` warned checks spread over the catalogue, and a summary of `bytes`. */
  function synthesised(n: number): Pick<ConformanceDocument, 'clauses' | 'verdict'> {
    const check = (status: string, i: number) => ({ clause: 'GEN-1', key: `k-${i}`, title: `check ${i}`, status, reason: `reason ${i}: a, b: c\nsecond line` });
    const clauses = Array.from({ length: 60 }, (_, c) => ({
      id: `GEN-${c}`,
      level: c % 2 ? 'SHOULD' : 'MUST',
      family: 'GEN',
      section: '1',
      summary: 's',
      status: 'fail',
      checks: Array.from({ length: Math.ceil((2 * n) / 60) }, (_, i) => check(i % 2 ? 'warn' : 'fail', c * 100 + i)),
    }));
    return { verdict: 'non-conformant', clauses } as never;
  }

  test('at most 10 annotations of a kind, then one notice naming how many more are in the report', () => {
    const lines = annotationLines(synthesised(300));
    expect(annotations(lines.join('\n'), 'error')).toHaveLength(ANNOTATIONS_PER_KIND);
    expect(annotations(lines.join('\n'), 'warning')).toHaveLength(ANNOTATIONS_PER_KIND);
    const notices = annotations(lines.join('\n'), 'notice');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/::290 more finding\(s\) \(290 errors, 290 warnings\)|::580 more finding\(s\) \(290 errors, 290 warnings\) are in report\.html/);
    // One line each: a message's newline is escaped, as is a title's colon.
    expect(lines.every((l) => !l.includes('\n'))).toBe(true);
  });

  test('the step summary stays under 1 MiB, cut at a line with a pointer to report.html; outputs and annotations from the folder', () => {
    const dir = scratch();
    const doc = synthesised(300);
    writeFileSync(join(dir, 'conformance.json'), JSON.stringify(doc));
    const row = (i: number) => `| GEN-${i} | MUST | fail | ${'é'.repeat(200)} |\n`;
    writeFileSync(join(dir, 'summary.md'), `## API v1 conformance\n\n${Array.from({ length: 8000 }, (_, i) => row(i)).join('')}`);
    const summaryFile = join(dir, 'step-summary.md');
    const outputFile = join(dir, 'output');
    const lines: string[] = [];
    const github = { GITHUB_STEP_SUMMARY: summaryFile, GITHUB_OUTPUT: outputFile, GITHUB_ACTIONS: 'true' };
    const saved = Object.fromEntries(Object.keys(github).map((name) => [name, process.env[name]]));
    Object.assign(process.env, github);
    try {
      reportStep(dir, 1, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    const summary = readFileSync(summaryFile);
    expect(summary.length).toBeLessThan(1024 * 1024);
    expect(summary.length).toBeGreaterThan(1000 * 1000);
    expect(summary.toString()).toMatch(/\|\n\n… cut here: .* report\.html in the report folder/);
    expect(summary.toString()).not.toContain('\uFFFD');
    expect(readFileSync(outputFile, 'utf8')).toBe(`verdict=non-conformant\nexit-status=1\nreport-dir=${dir}\n`);
    expect(lines.filter((l) => l.startsWith('::error '))).toHaveLength(10);
    expect(lines.filter((l) => l.startsWith('::notice '))).toHaveLength(1);
    expect(boundedSummary('short')).toBe('short');
  });

  test('extra arguments split as words, quotes keeping them together, nothing expanded', () => {
    expect(splitArguments(` --only "GEN,RES"  --header 'X-A: $HOME b' --strict`)).toEqual(['--only', 'GEN,RES', '--header', 'X-A: $HOME b', '--strict']);
    expect(() => splitArguments('--only "GEN')).toThrow(/unclosed/);
  });
});
