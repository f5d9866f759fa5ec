import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Profile } from '../../src/profile/profile.js';
import { runCli, type CliResult } from '../support/cli.js';

/** A target the CLI can be pointed at: its URL, the keys of its two accounts and its profile. */
export interface Target {
  readonly url: string;
  readonly keys: { readonly main: string; readonly other: string };
  readonly profile: Profile;
}

/** Runs the CLI against a target as a remote deployment, timing the run. */
export async function runAgainst(target: Target, args: readonly string[], env: Record<string, string> = {}): Promise<CliResult & { elapsedMs: number }> {
  const profileFile = join(mkdtempSync(join(tmpdir(), 'profile-')), 'profile.json');
  writeFileSync(profileFile, JSON.stringify(target.profile));
  const started = Date.now();
  const result = await runCli(['--profile', profileFile, ...args], {
    CONFORMANCE_BASE_URL: target.url,
    CONFORMANCE_API_KEY: target.keys.main,
    CONFORMANCE_OTHER_ACCOUNT_API_KEY: target.keys.other,
    ...env,
  });
  return { ...result, elapsedMs: Date.now() - started };
}

/** A crash shows a stack; a run that stops soundly shows at most one line per reason. */
export function hasStackTrace(text: string): boolean {
  return /^\s+at .+\(.+:\d+:\d+\)$/m.test(text) || /^\s+at .+:\d+:\d+$/m.test(text);
}
