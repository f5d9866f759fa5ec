import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { basename, delimiter, dirname, join } from 'node:path';
import { loadProfile, type Profile } from '../../src/profile/profile.js';
import { ROOT, runCli, type CliResult } from './cli.js';
import { reapWithTests, stoppedWithTest } from './reaper.js';

/**
 * The implementations written blind, from the API document and the profile format alone, each by
 * other hands: Python's standard library and SQLite (variants/blind/), and Node's standard library
 * (variants/blind-node/, variants/blind-enterprise/), then on the stacks users build APIs with. Each
 * README lists the choices it made. `needs`: what the machine must have for it to start (Debian's
 * packages, which `.ci/run` installs); without them its tests are skipped locally and fail in CI.
 */
export const BLIND = {
  python: { command: 'python3', server: join(ROOT, 'variants/blind/server.py'), profile: join(ROOT, 'variants/blind/profile.json'), needs: ['python3'] },
  node: { command: process.execPath, server: join(ROOT, 'variants/blind-node/server.mjs'), profile: join(ROOT, 'variants/blind-node/profile.json'), needs: [] },
  // FastAPI on Debian's uvicorn 0.17, its defaults kept: its Date is taken when a connection opens and
  // kept for the connection's life, so on kept-alive connections it lags (docs/judging.md).
  asgi: {
    command: '/usr/bin/python3',
    server: join(ROOT, 'variants/blind-asgi/server.py'),
    profile: join(ROOT, 'variants/blind-asgi/profile.json'),
    needs: ['/usr/lib/python3/dist-packages/uvicorn', '/usr/lib/python3/dist-packages/fastapi'],
  },
  // Flask 2.2 on Debian's gunicorn 20.1 (one gthread worker), Werkzeug's redirects and OPTIONS kept.
  flask: {
    command: '/usr/bin/python3',
    server: join(ROOT, 'variants/blind-flask/server.py'),
    profile: join(ROOT, 'variants/blind-flask/profile.json'),
    needs: ['/usr/lib/python3/dist-packages/flask', '/usr/lib/python3/dist-packages/gunicorn'],
  },
  // Express 4.18 from Debian's node-express (/usr/share/nodejs), its ETags and HEAD kept.
  express: {
    command: process.execPath,
    server: join(ROOT, 'variants/blind-express/server.mjs'),
    profile: join(ROOT, 'variants/blind-express/profile.json'),
    needs: ['/usr/share/nodejs/express'],
  },
  // PHP 8.2 under Debian's Apache httpd 2.4 with mod_php (prefork), its state in SQLite, Apache's
  // and PHP's defaults kept (X-Powered-By, Apache's own Date and error handling); a Python launcher.
  php: {
    command: '/usr/bin/python3',
    server: join(ROOT, 'variants/blind-php/serve.py'),
    profile: join(ROOT, 'variants/blind-php/profile.json'),
    needs: ['/usr/sbin/apache2', '/usr/lib/apache2/modules/libphp8.2.so', '/usr/lib/php/20220829/pdo_sqlite.so'],
  },
  // Sinatra 3.0 on Debian's Puma 5.6 (single mode, its thread pool), Rack's defaults kept, its state in memory.
  ruby: {
    command: '/usr/bin/ruby',
    server: join(ROOT, 'variants/blind-ruby/server.rb'),
    profile: join(ROOT, 'variants/blind-ruby/profile.json'),
    needs: ['/usr/bin/ruby', '/usr/bin/puma', '/usr/share/rubygems-integration/all/gems/sinatra-*'],
  },
  // Go 1.19's net/http from Debian's golang-go, its defaults kept (ServeMux's 301 to a cleaned path,
  // its own 400s, chunked large bodies); built by its launcher on first start, into a cache.
  go: {
    command: '/bin/sh',
    server: join(ROOT, 'variants/blind-go/run.sh'),
    profile: join(ROOT, 'variants/blind-go/profile.json'),
    needs: ['/usr/bin/go'],
    // A cold build takes 6 s on two idle cores and 20 s on loaded ones; later starts take milliseconds.
    startMs: 120_000,
  },
  // Django 3.2 with Django REST framework 3.14 on Debian's waitress 2.1, its state in memory; DRF's
  // negotiation, its 405s and 406s, and waitress's headers kept.
  django: {
    command: '/usr/bin/python3',
    server: join(ROOT, 'variants/blind-django/server.py'),
    profile: join(ROOT, 'variants/blind-django/profile.json'),
    needs: ['/usr/lib/python3/dist-packages/django', '/usr/lib/python3/dist-packages/rest_framework', '/usr/lib/python3/dist-packages/waitress'],
  },
  // Mojolicious 9.31 on its own daemon (Mojo::Server::Daemon, one event loop), Debian's
  // libmojolicious-perl, its defaults kept.
  perl: {
    command: '/usr/bin/perl',
    server: join(ROOT, 'variants/blind-perl/server.pl'),
    profile: join(ROOT, 'variants/blind-perl/profile.json'),
    needs: ['/usr/bin/perl', '/usr/share/perl5/Mojolicious.pm'],
  },
  enterprise: {
    command: process.execPath,
    server: join(ROOT, 'variants/blind-enterprise/server.mjs'),
    profile: join(ROOT, 'variants/blind-enterprise/profile.json'),
    needs: [],
  },
} as const satisfies Record<string, BlindEntry>;

interface BlindEntry {
  readonly command: string;
  readonly server: string;
  readonly profile: string;
  /** Files (a trailing `*` stands for any rest of the last segment) or commands on the PATH. */
  readonly needs: readonly string[];
  /** How long it may take to print its address. @default 10 s */
  readonly startMs?: number;
}

/** What of its `needs` the machine lacks: empty when the implementation can start here. */
export function missingFor(name: BlindName): string[] {
  return BLIND[name].needs.filter((need) => !present(need));
}

function present(need: string): boolean {
  if (!need.startsWith('/')) return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, need)));
  if (!need.endsWith('*')) return existsSync(need);
  const folder = dirname(need);
  const start = basename(need).slice(0, -1);
  return existsSync(folder) && readdirSync(folder).some((entry) => entry.startsWith(start));
}

export type BlindName = keyof typeof BLIND;

export interface RunningBlind {
  readonly url: string;
  readonly keys: { readonly main: string; readonly other: string };
  /** Its own profile, with the window it was started with. */
  readonly profile: Profile;
  close(): Promise<void>;
}

/** Starts a blind server on a free loopback port; resolves once it printed its address. */
export async function startBlind(windowSeconds: number, name: BlindName = 'python'): Promise<RunningBlind> {
  const entry: BlindEntry = BLIND[name];
  const { command, server, profile } = entry;
  const startMs = entry.startMs ?? 10_000;
  // A group of its own that the tests' reaper kills if they are cancelled before they stop it (reaper.ts).
  const child = spawn(command, [server, '--port', '0', '--window-seconds', String(windowSeconds)], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  reapWithTests(child.pid);
  child.once('exit', () => stoppedWithTest(child.pid));
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const first = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    const timer = setTimeout(() => reject(new Error(`the blind server (${name}) did not start within ${startMs / 1000} s: ${stderr}`)), startMs);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`the blind server (${name}) exited with ${code}: ${stderr}`)));
  });
  const { url, keys } = JSON.parse(first) as { url: string; keys: { main: string; other: string } };
  const declared = loadProfile(profile).profile;
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

/**
 * One whole run of the suite against a blind server started for it, under the profile `profileOf`
 * makes of the server's own (both keys given); the server is stopped afterwards.
 */
export async function runBlind(name: BlindName, profileOf: (own: Profile) => Profile, windowSeconds = 1): Promise<CliResult> {
  const blind = await startBlind(windowSeconds, name);
  try {
    const file = join(mkdtempSync(join(tmpdir(), 'profile-')), 'profile.json');
    writeFileSync(file, JSON.stringify(profileOf(blind.profile)));
    return await runCli(['--profile', file, '--property-runs', '25'], {
      CONFORMANCE_BASE_URL: blind.url,
      CONFORMANCE_API_KEY: blind.keys.main,
      CONFORMANCE_OTHER_ACCOUNT_API_KEY: blind.keys.other,
    });
  } finally {
    await blind.close();
  }
}
