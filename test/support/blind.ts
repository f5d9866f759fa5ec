import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { loadProfile, type Profile } from '../../src/profile/profile.js';
import { ROOT } from './cli.js';

/** The implementation written blind, from the API document alone (variants/blind/README.md). */
export const BLIND_SERVER = join(ROOT, 'variants/blind/server.py');

export interface RunningBlind {
  readonly url: string;
  readonly keys: { readonly main: string; readonly other: string };
  /** Its own profile, with the window it was started with. */
  readonly profile: Profile;
  close(): Promise<void>;
}

/** Starts the blind Python server on a free loopback port; resolves once it printed its address. */
export async function startBlind(windowSeconds: number): Promise<RunningBlind> {
  const child = spawn('python3', [BLIND_SERVER, '--port', '0', '--window-seconds', String(windowSeconds)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const first = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    const timer = setTimeout(() => reject(new Error(`the blind server did not start within 10 s: ${stderr}`)), 10_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`the blind server exited with ${code}: ${stderr}`)));
  });
  const { url, keys } = JSON.parse(first) as { url: string; keys: { main: string; other: string } };
  const declared = loadProfile(join(ROOT, 'variants/blind/profile.json')).profile;
  return {
    url,
    keys,
    profile: { ...declared, limits: { ...declared.limits, windowSeconds } },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
