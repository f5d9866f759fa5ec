import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../reference/server.js';
import type { ConformanceDocument } from '../src/report/document.js';
import { runConformance, scratch } from './support/commands.js';
import { ctrfProblems, harProblems } from './support/report-formats.js';
import { XMLLINT, xsdProblems } from './support/spawned.js';

// Issue 23: every way a run ends inconclusive (a wrong key, an unreachable target, a base URL that
// is the web app's, a redirect to sign-in, JSON that is not the API, a bad profile, a placeholder
// key) prints one line, exits 2, and leaves conformance.json, junit.xml and summary.md that say so.

const JUNIT_XSD = join(import.meta.dirname, 'fixtures/junit-10.xsd');
const KEY = 'sk_some_key_of_the_right_length';

/** A server that is not the API: the web app's sign-in page, a redirect to it, or another JSON service. */
function notTheApi(kind: 'html' | 'redirect' | 'json'): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    if (kind === 'redirect') {
      res.writeHead(302, { location: '/login?next=/api/v1/workspaces' }).end();
    } else if (kind === 'html') {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><html><body><form>Email <input name="email"></form></body></html>');
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok', version: '3.2.1' }));
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

describe('inconclusive runs leave a report that says so', () => {
  let reference: RunningReference;
  const servers: Server[] = [];
  const urls: Record<'html' | 'redirect' | 'json', string> = { html: '', redirect: '', json: '' };
  const badProfile = join(scratch(), 'profile.json');
  beforeAll(async () => {
    reference = await startReference({ windowSeconds: 1 });
    for (const kind of ['html', 'redirect', 'json'] as const) {
      const started = await notTheApi(kind);
      servers.push(started.server);
      urls[kind] = started.url;
    }
    writeFileSync(badProfile, JSON.stringify({ name: 'broken', keyPrefix: 42 }));
  });
  afterAll(async () => {
    await reference.close();
    for (const server of servers) server.close();
  });

  const cases: [string, () => Record<string, string>, string[], RegExp][] = [
    ['a wrong key', () => ({ CONFORMANCE_BASE_URL: reference.url, CONFORMANCE_API_KEY: KEY }), [], /^CONF_KEY_REJECTED: /],
    ['an unreachable target', () => ({ CONFORMANCE_BASE_URL: 'http://127.0.0.1:9', CONFORMANCE_API_KEY: KEY }), [], /^CONF_TARGET_UNREACHABLE: /],
    [
      'a base URL that serves the web app',
      () => ({ CONFORMANCE_BASE_URL: urls.html, CONFORMANCE_API_KEY: KEY }),
      [],
      /^CONF_TARGET_NOT_API: GET \/api\/v1\/workspaces answered 200 text\/html; charset=utf-8: is the base URL the web app's\?$/,
    ],
    [
      'a redirect to a sign-in page',
      () => ({ CONFORMANCE_BASE_URL: urls.redirect, CONFORMANCE_API_KEY: KEY }),
      [],
      /^CONF_TARGET_REDIRECTED: GET \/api\/v1\/workspaces answered 302 to \/login.*sign-in page: is the base URL the web app's\?$/,
    ],
    [
      'JSON that is not the API',
      () => ({ CONFORMANCE_BASE_URL: urls.json, CONFORMANCE_API_KEY: KEY }),
      [],
      /^CONF_TARGET_NOT_API: .*neither a pagination envelope nor an error envelope \(members status, version\)/,
    ],
    [
      'a bad profile',
      () => ({ CONFORMANCE_BASE_URL: reference.url, CONFORMANCE_API_KEY: reference.keys.main }),
      ['--profile', badProfile],
      /^CONF_PROFILE_INVALID: /,
    ],
    [
      'a placeholder key',
      () => ({ CONFORMANCE_BASE_URL: reference.url, CONFORMANCE_API_KEY: 'x' }),
      [],
      /^CONF_SETTING_INVALID: CONFORMANCE_API_KEY is 1 character/,
    ],
  ];

  test.concurrent.for(cases)('%s: one line, exit 2, and an inconclusive report', async ([, env, args, line]) => {
    const cwd = scratch();
    const dir = join(cwd, 'reports');
    const started = Date.now();
    const result = await runConformance(['--report-dir', dir, ...args], env(), cwd);
    console.log(`${line.source.slice(1, 30)}: ${Date.now() - started} ms`);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr.trim()).toMatch(line);
    expect(result.stdout).not.toMatch(/LEFT ON THE TARGET|key\(s\) still live/);
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceDocument;
    expect(report.verdict).toBe('inconclusive');
    // The same line, with local paths cut to file names (a report is handed over).
    expect(report.because.split(':')[0]).toBe(result.stderr.trim().split(':')[0]);
    expect(report.because).not.toContain(cwd);
    expect(['preflight', 'settings']).toContain(report.stopped?.kind);
    expect(report.resources.created).toEqual([]);
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(
      /<testcase classname="run" name="run (stopped by its preflight|not started, a setting is wrong): 61 of 61 clauses not run" time="0"><failure/,
    );
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(summary).toMatch(/inconclusive/);
    // A message that ends its own sentence ("is the base URL the web app's?") gets no second stop.
    expect(summary).not.toMatch(/[.?!]\.$/m);
    // CTRF and HAR too, valid with nothing judged and (before the broker) no exchange.
    expect(ctrfProblems(dir)).toEqual([]);
    expect(harProblems(dir)).toEqual([]);
    const ctrf = JSON.parse(readFileSync(join(dir, 'ctrf.json'), 'utf8')) as { results: { tests: { name: string; status: string }[] } };
    expect(ctrf.results.tests.find((t) => t.name.startsWith('run '))?.status).toBe('failed');
    // Skipped on a machine without xmllint; in CI (which installs it) never.
    if (XMLLINT || process.env.CI) expect(xsdProblems(join(dir, 'junit.xml'), JUNIT_XSD)).toBe('');
  });
});
