import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFrontEnd, upstreamAddress, type RunningFrontEnd } from './process.js';

/** Debian's nginx (package `nginx`), which .ci/run installs when missing. */
export const NGINX = '/usr/sbin/nginx';

export const reason = 'nginx 1.22 as a reverse proxy with gzip and upstream keep-alive: the most common front end of APIs';

/** nginx's access log is `accessLog`: one line per request it handled. */
export type RunningNginx = RunningFrontEnd & { readonly accessLog: string; readonly errorLog: string };

/**
 * Starts a real nginx as a reverse proxy in front of `upstream` (an http URL), on a free loopback
 * port, with Debian's usual settings plus gzip for JSON and keep-alive to the upstream. Its
 * configuration, pid, logs and temp folders live in a fresh temporary folder that `close()`
 * removes. nginx's defaults are kept where a deployment would keep them: merge_slashes on, its
 * own error pages (errors of the upstream are passed through, not intercepted), the Host header
 * sent upstream is `$proxy_host`, client_max_body_size 1m.
 */
export async function startNginx(upstream: string): Promise<RunningNginx> {
  const { hostPort } = upstreamAddress('startNginx', upstream);
  const running = await startFrontEnd({
    name: 'nginx',
    binary: NGINX,
    accessLog: 'access.log',
    errorLog: 'error.log',
    prepare(dir, port) {
      writeFileSync(join(dir, 'nginx.conf'), config(dir, port, hostPort));
      // -e: nginx opens its error log before reading the configuration; keep it out of /var/log.
      return { args: ['-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')] };
    },
  });
  return running as RunningNginx;
}

function config(dir: string, port: number, upstream: string): string {
  const at = (name: string) => join(dir, name);
  // Debian's /etc/nginx/nginx.conf, minus what would touch the system (user www-data, /run,
  // /var/log, /var/lib/nginx, sites-enabled), plus the reverse proxy.
  const mimeTypes = existsSync('/etc/nginx/mime.types') ? 'include /etc/nginx/mime.types;' : '';
  return `# Written by test/support/front-ends/nginx.ts
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
