import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's nginx (package `nginx`), which .ci/run installs when missing. */
export const NGINX = '/usr/sbin/nginx';

export interface RunningNginx {
  /** http://127.0.0.1:<port>, without a trailing slash. */
  readonly url: string;
  /** nginx's access log: one line per request it handled. */
  readonly accessLog: string;
  /** nginx's error log, for failure messages. */
  readonly errorLog: string;
  /** Stops nginx and removes its temporary folder. */
  close(): Promise<void>;
}

export interface NginxOptions {
  /** @default NGINX */
  readonly binary?: string;
  /** How long nginx may take to answer on its port. @default 10000 */
  readonly startTimeoutMs?: number;
}

/**
 * Starts a real nginx as a reverse proxy in front of `upstream` (an http URL), on a free loopback
 * port, with Debian's usual settings plus gzip for JSON and keep-alive to the upstream. Its
 * configuration, pid, logs and temp folders live in a fresh temporary folder that `close()`
 * removes. nginx's defaults are kept where a deployment would keep them: merge_slashes on, its
 * own error pages (errors of the upstream are passed through, not intercepted), the Host header
 * sent upstream is `$proxy_host`, client_max_body_size 1m.
 */
export async function startNginx(upstream: string, options: NginxOptions = {}): Promise<RunningNginx> {
  const binary = options.binary ?? NGINX;
  const target = new URL(upstream);
  if (target.protocol !== 'http:') throw new Error(`startNginx: the upstream must be an http URL, not ${upstream}`);
  const upstreamPort = target.port || '80';
  const dir = mkdtempSync(join(tmpdir(), 'nginx-'));
  const failures: string[] = [];
  try {
    // A port freed by another process between our probe and nginx's bind: try again on another.
    for (let attempt = 1; attempt <= 3; attempt++) {
      const port = await freePort();
      writeFileSync(join(dir, 'nginx.conf'), config(dir, port, `${target.hostname}:${upstreamPort}`));
      const started = await launch(binary, dir, port, options.startTimeoutMs ?? 10_000);
      if ('child' in started) {
        const child = started.child;
        return {
          url: `http://127.0.0.1:${port}`,
          accessLog: join(dir, 'access.log'),
          errorLog: join(dir, 'error.log'),
          async close() {
            await stop(child);
            rmSync(dir, { recursive: true, force: true });
          },
        };
      }
      failures.push(`attempt ${attempt} on port ${port}: ${started.failure}`);
      if (!/in use/i.test(started.failure)) break;
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error(`nginx did not start:\n${failures.join('\n')}`);
}

function config(dir: string, port: number, upstream: string): string {
  const at = (name: string) => join(dir, name);
  // Debian's /etc/nginx/nginx.conf, minus what would touch the system (user www-data, /run,
  // /var/log, /var/lib/nginx, sites-enabled), plus the reverse proxy.
  const mimeTypes = existsSync('/etc/nginx/mime.types') ? 'include /etc/nginx/mime.types;' : '';
  return `# Written by test/support/nginx.ts
daemon off;
master_process off;
worker_processes 1;
pid ${at('nginx.pid')};
error_log ${at('error.log')} warn;

events {
  worker_connections 256;
}

http {
  sendfile on;
  tcp_nopush on;
  types_hash_max_size 2048;
  ${mimeTypes}
  default_type application/octet-stream;

  access_log ${at('access.log')};

  client_body_temp_path ${at('client_body_temp')};
  proxy_temp_path ${at('proxy_temp')};
  fastcgi_temp_path ${at('fastcgi_temp')};
  uwsgi_temp_path ${at('uwsgi_temp')};
  scgi_temp_path ${at('scgi_temp')};

  gzip on;
  gzip_types application/json;

  upstream upstream {
    server ${upstream};
    keepalive 8;
  }

  server {
    listen 127.0.0.1:${port};
    server_name localhost;

    location / {
      proxy_pass http://upstream;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
`;
}

/** A port the kernel just handed out on 127.0.0.1, released for nginx to take. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts nginx and waits until its port accepts a connection, or until it exits or times out. */
async function launch(binary: string, dir: string, port: number, timeoutMs: number): Promise<{ child: ChildProcess } | { failure: string }> {
  // -e: nginx opens its error log before reading the configuration; keep it out of /var/log.
  const child = spawn(binary, ['-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  let exited: string | null = null;
  const exit = new Promise<void>((resolve) => {
    child.once('error', (error) => {
      exited = `could not run ${binary}: ${error.message}`;
      resolve();
    });
    child.once('exit', (code, signal) => {
      exited = `nginx exited (${signal ?? `code ${code}`})`;
      resolve();
    });
  });
  const deadline = Date.now() + timeoutMs;
  while (exited === null && Date.now() < deadline) {
    if (await answers(port)) {
      if (exited === null) return { child };
      break;
    }
    await Promise.race([exit, new Promise((resolve) => setTimeout(resolve, 50))]);
  }
  if (exited === null) await stop(child);
  const log = readIfThere(join(dir, 'error.log'));
  return { failure: `${exited ?? `no answer on port ${port} within ${timeoutMs} ms`}: ${(output + log).trim() || '(no output)'}` };
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** SIGTERM (nginx's fast shutdown), then SIGKILL if it lingers. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
