import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFrontEnd, upstreamAddress, type RunningFrontEnd } from './process.js';

/** Debian's Apache httpd (package `apache2`). */
export const APACHE = '/usr/sbin/apache2';

export const reason = 'Apache httpd 2.4 with mod_proxy_http: the reverse proxy of most enterprise Linux installs';

const AVAILABLE = '/etc/apache2/mods-available';

/** The modules a fresh Debian install has in mods-enabled, then the two an operator enables for ProxyPass. */
const MODULES = [
  'mpm_event',
  'access_compat',
  'alias',
  'auth_basic',
  'authn_core',
  'authn_file',
  'authz_core',
  'authz_host',
  'authz_user',
  'autoindex',
  'deflate',
  'dir',
  'env',
  'filter',
  'mime',
  'negotiation',
  'reqtimeout',
  'setenvif',
  'status',
  'proxy',
  'proxy_http',
];

/** The files a fresh Debian install has in conf-enabled (security.conf: ServerTokens OS, TraceEnable Off). */
const CONFS = ['charset', 'localized-error-pages', 'other-vhosts-access-log', 'security', 'serve-cgi-bin'];

/**
 * Starts Apache httpd as a reverse proxy in front of `upstream` (an http URL) on a free loopback
 * port: Debian's apache2.conf, its default modules and conf-enabled files read from /etc/apache2,
 * and its default site with `ProxyPass` and `ProxyPassReverse` added. Run, pid, lock and log
 * folders are in a temporary folder, set through the variables apache2ctl would export.
 */
export function startApache(upstream: string): Promise<RunningFrontEnd> {
  const target = `http://${upstreamAddress('startApache', upstream).hostPort}/`;
  return startFrontEnd({
    name: 'Apache httpd',
    binary: APACHE,
    accessLog: 'access.log',
    errorLog: 'error.log',
    prepare(dir, port) {
      writeFileSync(join(dir, 'apache2.conf'), config(port, target));
      return {
        args: ['-f', join(dir, 'apache2.conf'), '-DFOREGROUND'],
        // What /etc/apache2/envvars exports, pointed into the temporary folder.
        env: {
          APACHE_RUN_USER: 'www-data',
          APACHE_RUN_GROUP: 'www-data',
          APACHE_PID_FILE: join(dir, 'apache2.pid'),
          APACHE_RUN_DIR: dir,
          APACHE_LOCK_DIR: dir,
          APACHE_LOG_DIR: dir,
          LANG: 'C',
        },
      };
    },
  });
}

function config(port: number, target: string): string {
  const include = (file: string) => (existsSync(file) ? `Include ${file}` : '');
  // Debian's /etc/apache2/apache2.conf, with ports.conf and sites-enabled/000-default.conf inlined.
  return `# Written by test/support/front-ends/apache.ts
ServerRoot "/etc/apache2"
DefaultRuntimeDir \${APACHE_RUN_DIR}
PidFile \${APACHE_PID_FILE}
Timeout 300
KeepAlive On
MaxKeepAliveRequests 100
KeepAliveTimeout 5
User \${APACHE_RUN_USER}
Group \${APACHE_RUN_GROUP}
HostnameLookups Off
ErrorLog \${APACHE_LOG_DIR}/error.log
LogLevel warn

${MODULES.map((m) => `${include(`${AVAILABLE}/${m}.load`)}\n${include(`${AVAILABLE}/${m}.conf`)}`)
  .join('\n')
  .replace(/\n+/g, '\n')}

Listen 127.0.0.1:${port}

<Directory />
	Options FollowSymLinks
	AllowOverride None
	Require all denied
</Directory>
<Directory /usr/share>
	AllowOverride None
	Require all granted
</Directory>
<Directory /var/www/>
	Options Indexes FollowSymLinks
	AllowOverride None
	Require all granted
</Directory>
AccessFileName .htaccess
<FilesMatch "^\\.ht">
	Require all denied
</FilesMatch>

LogFormat "%v:%p %h %l %u %t \\"%r\\" %>s %O \\"%{Referer}i\\" \\"%{User-Agent}i\\"" vhost_combined
LogFormat "%h %l %u %t \\"%r\\" %>s %O \\"%{Referer}i\\" \\"%{User-Agent}i\\"" combined
LogFormat "%h %l %u %t \\"%r\\" %>s %O" common
LogFormat "%{Referer}i -> %U" referer
LogFormat "%{User-agent}i" agent

${CONFS.map((c) => include(`/etc/apache2/conf-available/${c}.conf`))
  .filter(Boolean)
  .join('\n')}

<VirtualHost *:${port}>
	ServerAdmin webmaster@localhost
	DocumentRoot /var/www/html
	ErrorLog \${APACHE_LOG_DIR}/error.log
	CustomLog \${APACHE_LOG_DIR}/access.log combined

	ProxyPass / ${target}
	ProxyPassReverse / ${target}
</VirtualHost>
`;
}
