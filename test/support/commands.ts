import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mutantNamed, type MutantName } from '../../mutants/index.js';
import { startReference, type Modification, type RunningReference } from '../../reference/server.js';
import { DIRECT_RUN, runCommand, type CommandOptions } from './run-cli.js';

export interface CommandResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly cwd: string;
}

/**
 * Runs `conformance ARGS` (any command) in a run host (run-host.ts), or as `options` say, in a
 * scratch directory, with only the given settings.
 */
export async function runConformance(
  args: readonly string[],
  env: Record<string, string> = {},
  cwd = scratch(),
  options: CommandOptions = {},
): Promise<CommandResult> {
  return { ...(await runCommand(args, childEnv(env), cwd, options)), cwd };
}

/** This process's environment less every setting of the suite, of vitest and of GitHub, plus `env`: a child sees only what a test gives it. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('CONFORMANCE_') && !name.startsWith('VITEST') && !name.startsWith('GITHUB_')),
  );
  return { ...clean, ...DIRECT_RUN, ...env };
}

export function scratch(prefix = 'conformance-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The settings that point a run at a running reference as at any deployment. */
export function targetEnv(target: RunningReference): Record<string, string> {
  return { CONFORMANCE_BASE_URL: target.url, CONFORMANCE_API_KEY: target.keys.main, CONFORMANCE_OTHER_ACCOUNT_API_KEY: target.keys.other };
}

/** One reference carrying every named mutant's fault at once. */
export function withMutants(...names: MutantName[]): Modification {
  return (app) => {
    for (const name of names) mutantNamed(name).modify(app);
  };
}

/** Starts a reference (window 1 s), gives it to `body`, closes it after. */
export async function withReference<T>(modify: Modification | undefined, body: (target: RunningReference) => Promise<T>): Promise<T> {
  const target = await startReference({ windowSeconds: 1, ...(modify ? { modify } : {}) });
  try {
    return await body(target);
  } finally {
    await target.close();
  }
}

export function readJson<T = unknown>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** Test cases of a JUnit file by name, and whether each is a failure. */
export function junitCases(xml: string): Map<string, 'failed' | 'skipped' | 'passed'> {
  const cases = new Map<string, 'failed' | 'skipped' | 'passed'>();
  for (const match of xml.matchAll(/<testcase [^>]*name="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const inner = match[3] ?? '';
    cases.set(unescapeXml(match[1]!), /<failure/.test(inner) ? 'failed' : /<skipped/.test(inner) ? 'skipped' : 'passed');
  }
  return cases;
}

function unescapeXml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
