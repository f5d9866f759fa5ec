import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReference, type ReferenceApp, type RunningReference } from '../../reference/server.js';
import type { Profile } from '../../src/profile/profile.js';
import { ROOT } from './cli.js';
import { childEnv } from './commands.js';
import { liveRunKeys } from './live-keys.js';

const BIN = join(ROOT, 'bin/conformance.mjs');

/** One line of a child's output and when it arrived (ms since the child started). */
export interface TimedLine {
  readonly at: number;
  readonly stream: 'out' | 'err';
  readonly text: string;
}

export interface Spawned {
  readonly child: ChildProcess;
  readonly lines: TimedLine[];
  readonly startedAt: number;
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null; endedAt: number }>;
  /** Resolves with the first line that matches, or rejects after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<TimedLine>;
  text(): string;
}

/** `conformance ARGS` in a child process with only the given settings, its lines timed as they arrive (no TTY: a CI log). */
export function spawnConformance(args: readonly string[], env: Record<string, string>, cwd: string, options: { ipc?: boolean } = {}): Spawned {
  // With `ipc`, the run has the channel its launcher (bin/conformance.mjs) gives it: disconnecting it is the launcher going away.
  const stdio = options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'];
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: childEnv(env), stdio: stdio as ['ignore', 'pipe', 'pipe'] });
  const startedAt = Date.now();
  const lines: TimedLine[] = [];
  const watchers: { pattern: RegExp; resolve: (line: TimedLine) => void }[] = [];
  const feed = (stream: 'out' | 'err') => {
    let pending = '';
    return (chunk: Buffer) => {
      pending += chunk.toString();
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      for (const text of parts) {
        const line = { at: Date.now() - startedAt, stream, text };
        lines.push(line);
        for (const w of watchers.splice(0)) {
          if (w.pattern.test(text)) w.resolve(line);
          else watchers.push(w);
        }
      }
    };
  };
  child.stdout!.on('data', feed('out'));
  child.stderr!.on('data', feed('err'));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; endedAt: number }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, endedAt: Date.now() })),
  );
  return {
    child,
    lines,
    startedAt,
    done,
    text: () => lines.map((l) => l.text).join('\n'),
    waitFor: (pattern, timeoutMs) => {
      const seen = lines.find((l) => pattern.test(l.text));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no line matched ${pattern} in ${timeoutMs} ms:\n${lines.map((l) => l.text).join('\n')}`)), timeoutMs);
        watchers.push({
          pattern,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
      });
    },
  };
}

/** A reference with windows of `windowSeconds` and a per-key ceiling of `perKey`, as a remote target (its profile in a file). */
export async function slowReference(
  windowSeconds: number,
  perKey: number,
  base: Profile,
  modify?: (reference: ReferenceApp) => void,
): Promise<{ target: RunningReference; app: ReferenceApp; cwd: string; profileFile: string; env: Record<string, string>; live: () => string[] }> {
  let app: ReferenceApp | null = null;
  const profile = { ...base, limits: { ...base.limits, perKeyPerMinute: perKey, windowSeconds } };
  const target = await startReference({
    profile,
    windowSeconds,
    modify: (reference) => {
      app = reference;
      modify?.(reference);
    },
  });
  const cwd = mkdtempSync(join(tmpdir(), 'conformance-field-'));
  const profileFile = join(cwd, 'profile.json');
  writeFileSync(profileFile, JSON.stringify(target.profile));
  return {
    target,
    app: app!,
    cwd,
    profileFile,
    env: { CONFORMANCE_BASE_URL: target.url, CONFORMANCE_API_KEY: target.keys.main },
    live: () => liveRunKeys(app!.state.store.accounts.slice(0, 1)),
  };
}

/** xmllint, which validates against an XSD; Debian's libxml2-utils, which `.ci/run` installs. */
export const XMLLINT = ['/usr/bin/xmllint', '/bin/xmllint'].find((path) => existsSync(path)) ?? null;

/** Problems xmllint finds in `file` against `schema`; empty when it validates. */
export function xsdProblems(file: string, schema: string): string {
  try {
    execFileSync(XMLLINT!, ['--noout', '--schema', schema, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    return '';
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  }
}
