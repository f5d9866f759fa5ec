import { expect, test } from 'vitest';
import type { Exchange } from '../src/http/exchange.js';
import type { ConformanceDocument } from '../src/report/document.js';
import { renderHar } from '../src/report/har.js';

// exchanges.har is rendered from the redacted log, whose URLs need not parse: a URL the redactor
// replaced whole (a target that echoed it where the run looked for a key's secret), or one GEN-3
// sent malformed on purpose. The report must still be written.

const doc = { suite: { version: '0.0.0' }, target: { baseUrl: 'http://127.0.0.1:1' }, clauses: [] } as unknown as ConformanceDocument;
const exchange = (url: string): Exchange => ({
  startedAt: new Date(0).toISOString(),
  durationMs: 1,
  auth: 'main',
  bucket: 'main',
  request: { method: 'GET', url, headers: {} },
  response: { status: 200, headers: {}, body: '{}', bytes: 2, truncated: false, json: 'ok' },
});

test('a logged URL that does not parse still gets its HAR entry, its query read where it has one', () => {
  const har = JSON.parse(renderHar(doc, [exchange('[REDACTED]'), exchange('[REDACTED]/api/v1/workspaces?limit=1&after=%zz')])) as {
    log: { entries: { request: { url: string; queryString: { name: string; value: string }[] } }[] };
  };
  expect(har.log.entries.map((e) => e.request.url)).toEqual(['[REDACTED]', '[REDACTED]/api/v1/workspaces?limit=1&after=%zz']);
  expect(har.log.entries[0]!.request.queryString).toEqual([]);
  expect(har.log.entries[1]!.request.queryString).toEqual([
    { name: 'limit', value: '1' },
    { name: 'after', value: '%zz' },
  ]);
});
