import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { ROOT } from './support/cli.js';
import { childEnv, scratch, targetEnv, withReference } from './support/commands.js';

// Issue 34: the GitLab CI/CD component parses as a component (a spec of inputs, then the job), and
// its script and after_script lines run as GitLab runs them: inputs interpolated, variables set,
// each line in bash; the install (before_script) is this clone.

const [header, body] = parseAllDocuments(readFileSync(join(ROOT, 'templates/conformance.yml'), 'utf8')).map((d) => d.toJS());
const inputs = (header as { spec: { inputs: Record<string, { default?: string }> } }).spec.inputs;
interface Job {
  image: string;
  variables: Record<string, string>;
  before_script: string[];
  script: string[];
  after_script: string[];
  artifacts: { when: string; paths: string[]; reports: { junit: string } };
}
const [name, job] = Object.entries(body as Record<string, Job>)[0]!;

function interpolate(text: string, values: Record<string, string>): string {
  return text.replace(/\$\[\[\s*inputs\.([\w-]+)\s*\]\]/g, (_, input: string) => values[input] ?? inputs[input]?.default ?? '');
}

describe('the GitLab component', () => {
  test('is one job with its inputs, installing the suite at an exact version, cleanup in after_script, JUnit and artifacts always', () => {
    expect(name).toBe('api-v1-conformance');
    expect(inputs.version?.default).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    expect(inputs.image?.default).toMatch(/^node:(22|24)$/);
    expect(job.before_script.join('\n')).toMatch(/api-v1-conformance@\$\[\[ inputs\.version \]\]/);
    expect(job.after_script.join('\n')).toMatch(/ ci cleanup$/);
    expect(job.artifacts.when).toBe('always');
    expect(interpolate(job.artifacts.reports.junit, {})).toBe('conformance-reports/junit.xml');
    // Inputs reach the shell as variables only.
    for (const line of [...job.script, ...job.after_script]) expect(line).not.toMatch(/\$\[\[/);
  });

  test('its script and after_script run the suite and its cleanup against a target, leaving junit.xml', async () => {
    await withReference(undefined, async (target) => {
      const cwd = scratch();
      writeFileSync(join(cwd, 'profile.json'), JSON.stringify(target.profile));
      const { CONFORMANCE_BASE_URL: baseUrl, ...keys } = targetEnv(target);
      const values = { 'base-url': baseUrl!, profile: 'profile.json', args: '--only GEN --seed 3' };
      const variables = Object.fromEntries(
        Object.entries(job.variables).map(([k, v]) => [k, interpolate(String(v), values).replace(/\$CI_PROJECT_DIR/g, cwd)]),
      );
      const env = childEnv({ ...keys, ...variables, CI_PROJECT_DIR: cwd, GITLAB_CI: 'true', CONFORMANCE_SUITE: ROOT });
      // In turn, as GitLab runs them, and never blocking this process: the target runs in it.
      const run = async (lines: string[]) => {
        const results: { status: number; stdout: string; stderr: string }[] = [];
        for (const line of lines) {
          results.push(
            await promisify(execFile)('bash', ['-eo', 'pipefail', '-c', line], { cwd, env, timeout: 120_000 }).then(
              (r) => ({ status: 0, ...r }),
              (e: { code: number; stdout: string; stderr: string }) => ({ status: e.code, stdout: e.stdout, stderr: e.stderr }),
            ),
          );
        }
        return results;
      };
      const [script] = await run(job.script);
      expect(script!.status, script!.stdout + script!.stderr).toBe(0);
      expect(script!.stdout).not.toMatch(/^::/m);
      expect(existsSync(join(cwd, interpolate(job.artifacts.reports.junit, values)))).toBe(true);
      const [cleanup] = await run(job.after_script);
      expect(cleanup!.status, cleanup!.stderr).toBe(0);
      expect(cleanup!.stdout).toMatch(/^cleanup: nothing to delete on /m);
    });
  }, 120_000);
});
