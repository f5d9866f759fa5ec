import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REQUEST_HEADERS } from '../suites/catalogues/request-headers.js';
import type { Exchange } from '../src/http/exchange.js';
import { HTTP_ANSWERS, httpAnswerOf } from '../src/http/http-answers.js';
import { RUN_WIDE_JUDGES, type Judge } from '../src/judge/run-wide.js';
import { parseProfile } from '../src/profile/profile.js';
import { ROOT } from './support/cli.js';

// A request HTTP gives a meaning (a range, a condition, a negotiation) has every answer RFC 9110
// allows, whoever gives it: Apache httpd in front of an API serves byte ranges of its responses by
// default. Such an answer is judged by HTTP's rules and what the API still owes in it, never as a
// JSON body (src/http/http-answers.ts).

const profile = parseProfile({ name: 't' });
const LIST = '{"items":[{"id":"w1","name":"Main","description":""}],"has_more":false,"total_count":1}';

function exchange(request: Record<string, string>, status: number, headers: Record<string, string>, body: string): Exchange {
  return {
    startedAt: new Date().toISOString(),
    durationMs: 3,
    auth: 'main',
    bucket: 'key:a',
    request: { method: 'GET', url: 'http://t/api/v1/workspaces?limit=1', headers: { authorization: 'Bearer k', ...request } },
    response: {
      status,
      headers: { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 30), ...headers },
      body,
      bytes: Buffer.byteLength(body),
      truncated: false,
      json: (() => {
        try {
          JSON.parse(body);
          return 'ok' as const;
        } catch {
          return body === '' ? ('empty' as const) : ('invalid' as const);
        }
      })(),
    },
  };
}

/** Apache httpd's answer to `Range: bytes=0-9` on a proxied JSON response (mod_proxy_http, Debian's defaults). */
const apache206 = () =>
  exchange({ range: 'bytes=0-9' }, 206, { 'content-type': 'application/json', 'content-range': `bytes 0-9/${LIST.length}` }, LIST.slice(0, 10));

const judged = (log: Exchange[]) =>
  (['GEN-1', 'GEN-5', 'ERR-1', 'ERR-2', 'RATE-1'] as const).flatMap((clause) =>
    (RUN_WIDE_JUDGES[clause] as Judge)(log, profile, []).map((v) => `${clause}: ${v.reason}`),
  );

describe('answers HTTP gives a request that asks for them are judged by HTTP, not as JSON bodies', () => {
  test("Apache's 206 to a range, with its Content-Range and the first ten bytes of the JSON list, is no finding", () => {
    expect(httpAnswerOf(apache206())).toMatchObject({ rule: { statuses: [206] }, problem: null });
    expect(judged([apache206()])).toEqual([]);
  });

  test("a front end's own HTML 416, 412 or 406 to a request that asked for its meaning is no finding", () => {
    const html = { 'content-type': 'text/html' };
    const log = [
      exchange({ range: 'bytes=0-9' }, 416, html, '<html>416 Requested Range Not Satisfiable</html>'),
      exchange({ 'if-match': '"x"' }, 412, html, '<html>412 Precondition Failed</html>'),
      exchange({ accept: 'application/xml' }, 406, html, '<html>406 Not Acceptable</html>'),
      exchange({ 'if-none-match': '*' }, 304, {}, ''),
    ];
    expect(judged(log)).toEqual([]);
  });

  test('what the API still owes in a 206 is judged: a Content-Range that matches its bytes, bytes that start as JSON does', () => {
    const noRange = exchange({ range: 'bytes=0-9' }, 206, { 'content-type': 'application/json' }, LIST.slice(0, 10));
    const wrongLength = exchange({ range: 'bytes=0-9' }, 206, { 'content-range': 'bytes 0-19/99' }, LIST.slice(0, 10));
    const notJson = exchange({ range: 'bytes=0-9' }, 206, { 'content-range': 'bytes 0-9/99' }, '<html>0123');
    expect(RUN_WIDE_JUDGES['GEN-1']([noRange, wrongLength, notJson]).map((v) => v.reason)).toEqual([
      'a 206 without Content-Range is no range of the representation',
      'a 206 whose Content-Range "bytes 0-19/99" names 20 bytes, and whose body holds 10',
      'a 206 of the first bytes of a JSON representation starts "<html>0123", as no JSON text does',
    ]);
  });

  test('the same statuses to a request that did not ask for them are judged as any answer of the API', () => {
    const unasked = [
      exchange({}, 206, { 'content-range': 'bytes 0-9/99', 'content-type': 'application/json' }, LIST.slice(0, 10)),
      exchange({ accept: 'application/json' }, 406, { 'content-type': 'text/html' }, '<html>406</html>'),
      exchange({}, 412, { 'content-type': 'text/html' }, '<html>412</html>'),
    ];
    expect(RUN_WIDE_JUDGES['GEN-1'](unasked)).toHaveLength(3);
  });

  test("Express's default answer to OPTIONS, and Go's redirect of a path not in its normal form, are no finding; a redirect of a path in normal form is", () => {
    const options = exchange({}, 200, { 'content-type': 'text/html; charset=utf-8', allow: 'GET,HEAD' }, 'GET,HEAD');
    options.request.method = 'OPTIONS';
    const moved = (path: string) => {
      const e = exchange(
        {},
        301,
        { 'content-type': 'text/html; charset=utf-8', location: '/api/v1/workspaces' },
        '<a href="/api/v1/workspaces">Moved Permanently</a>.',
      );
      e.request.url = `http://t${path}`;
      return e;
    };
    expect(judged([options, moved('/api/v1//workspaces'), moved('/api/v1/../v1/workspaces'), moved('/api/v1/workspaces/')])).toEqual([]);
    expect(RUN_WIDE_JUDGES['GEN-1']([moved('/api/v1/workspaces')])).toHaveLength(1);
  });

  test('a 406 to an Accept that admits JSON is no answer HTTP gives it', () => {
    const admitted = exchange({ accept: 'application/xml, application/json;q=0.1' }, 406, { 'content-type': 'text/html' }, '<html>406</html>');
    expect(httpAnswerOf(admitted)).toBeNull();
  });
});

describe('the table per catalogue entry', () => {
  /** Request headers HTTP gives a meaning that changes the answer (RFC 9110: 12.5, 13.1, 14.2). */
  const MEANINGFUL = /^(range|if-[a-z-]+|accept(-[a-z]+)?)$/;

  test('every request-header entry names exactly the answers the table gives its request', () => {
    for (const entry of REQUEST_HEADERS) {
      const given = HTTP_ANSWERS.filter((rule) => rule.asks({ method: 'GET', headers: { ...entry.headers } })).flatMap((rule) => rule.statuses);
      expect([...entry.httpAnswers].sort(), entry.name).toEqual(given.sort());
    }
  });

  test("an entry with a header HTTP gives a meaning is sent only once the table has that meaning's answers", () => {
    // Accept that admits JSON has none besides the representation: the one entry allowed none.
    const exempt = new Set(['Accept: application/xml, application/json;q=0.1']);
    for (const entry of REQUEST_HEADERS.filter((e) => Object.keys(e.headers).some((h) => MEANINGFUL.test(h.toLowerCase())) && !exempt.has(e.name))) {
      expect(entry.httpAnswers.length, `${entry.name}: add its answers to src/http/http-answers.ts first`).toBeGreaterThan(0);
    }
  });

  test('docs/judging.md holds the table: every answer, what asks for it and what the API owes in it', () => {
    const page = readFileSync(join(ROOT, 'docs/judging.md'), 'utf8');
    for (const rule of HTTP_ANSWERS) {
      expect(page, rule.name).toContain(`| ${rule.statuses.join(', ')} ${rule.name} |`);
      expect(page, rule.name).toContain(rule.owes);
    }
  });
});
