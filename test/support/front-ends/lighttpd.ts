import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFrontEnd, upstreamAddress, type RunningFrontEnd } from './process.js';

/** Debian's lighttpd (package `lighttpd`). */
export const LIGHTTPD = '/usr/sbin/lighttpd';

export const reason = 'lighttpd 1.4 with mod_proxy: the small-footprint front end of embedded and appliance deployments';

/**
 * Starts lighttpd as a reverse proxy in front of `upstream` (an http URL) on a free loopback
 * port: Debian's /etc/lighttpd/lighttpd.conf (its strict request parsing, url.access-deny, the
 * conf-enabled javascript alias) with its paths moved into a temporary folder, plus what
 * `lighty-enable-mod proxy accesslog` adds and one `proxy.server` for every path.
 */
export function startLighttpd(upstream: string): Promise<RunningFrontEnd> {
  const { host, port: upstreamPort } = upstreamAddress('startLighttpd', upstream);
  return startFrontEnd({
    name: 'lighttpd',
    binary: LIGHTTPD,
    // lighttpd buffers its access log and writes it out about once a second.
    accessLog: 'access.log',
    errorLog: 'error.log',
    prepare(dir, port) {
      // Started as root, lighttpd drops to www-data before it opens its logs, and spools
      // request bodies as www-data: these must be writable by it, and nothing else.
      chmodSync(dir, 0o711);
      mkdirSync(join(dir, 'uploads'));
      chmodSync(join(dir, 'uploads'), 0o1777);
      for (const log of ['error.log', 'access.log']) {
        writeFileSync(join(dir, log), '');
        chmodSync(join(dir, log), 0o666);
      }
      writeFileSync(join(dir, 'lighttpd.conf'), config(dir, port, host, upstreamPort));
      // -D: stay in the foreground.
      return { args: ['-D', '-f', join(dir, 'lighttpd.conf')] };
    },
  });
}

function config(dir: string, port: number, host: string, upstreamPort: number): string {
  const alias = '/etc/lighttpd/conf-available/90-javascript-alias.conf';
  return `# Written by test/support/front-ends/lighttpd.ts
server.modules = (
	"mod_indexfile",
	"mod_access",
	"mod_alias",
	"mod_redirect",
)

server.document-root        = "/var/www/html"
server.upload-dirs          = ( "${join(dir, 'uploads')}" )
server.errorlog             = "${join(dir, 'error.log')}"
server.pid-file             = "${join(dir, 'lighttpd.pid')}"
server.username             = "www-data"
server.groupname            = "www-data"
server.bind                 = "127.0.0.1"
server.port                 = ${port}

server.feature-flags       += ("server.h2proto" => "enable")
server.feature-flags       += ("server.h2c"     => "enable")
server.feature-flags       += ("server.graceful-shutdown-timeout" => 5)

server.http-parseopts = (
  "header-strict"           => "enable",
  "host-strict"             => "enable",
  "host-normalize"          => "enable",
  "url-normalize-unreserved"=> "enable",
  "url-normalize-required"  => "enable",
  "url-ctrls-reject"        => "enable",
  "url-path-2f-decode"      => "enable",
  "url-path-dotseg-remove"  => "enable",
)

index-file.names            = ( "index.php", "index.html" )
url.access-deny             = ( "~", ".inc" )
static-file.exclude-extensions = ( ".php", ".pl", ".fcgi" )

include_shell "/usr/share/lighttpd/create-mime.conf.pl"
${existsSync(alias) ? `include "${alias}"` : ''}

server.modules += ( "mod_proxy" )
proxy.server = ( "" => ( ( "host" => "${host}", "port" => ${upstreamPort} ) ) )

server.modules += ( "mod_accesslog" )
accesslog.filename = "${join(dir, 'access.log')}"

server.modules += (
	"mod_dirlisting",
	"mod_staticfile",
)
`;
}
