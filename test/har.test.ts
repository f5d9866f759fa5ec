import { expect, test, vi } from 'vitest';
import type { Exchange } from '../src/http/exchange.js';
import type { ConformanceDocument } from '../src/report/document.js';
import { renderHar } from '../src/report/har.js';
import { bodiesOf, HarEntries } from '../src/report/har-entries.js';
import { sleep } from '../src/sleep.js';

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
  const har = JSON.parse(Buffer.from(renderHar(doc, [exchange('[REDACTED]'), exchange('[REDACTED]/api/v1/workspaces?limit=1&after=%zz')])).toString()) as {
    log: { entries: { request: { url: string; queryString: { name: string; value: string }[] } }[] };
  };
  expect(har.log.entries.map((e) => e.request.url)).toEqual(['[REDACTED]', '[REDACTED]/api/v1/workspaces?limit=1&after=%zz']);
  expect(har.log.entries[0]!.request.queryString).toEqual([]);
  expect(har.log.entries[1]!.request.queryString).toEqual([
    { name: 'limit', value: '1' },
    { name: 'after', value: '%zz' },
  ]);
});

/** A log with every kind of entry: bodies sent and answered, text beyond ASCII, no answer, a retry. */
function variedLog(): Exchange[] {
  const sent = { ...exchange('http://127.0.0.1:1/api/v1/submissions?workspace_id=ws_1'), seq: 0 };
  sent.request = { ...sent.request, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"rows":[{"data":{"name":"Zoë 😀 \\u0000"}}]}' };
  const unanswered: Exchange = { ...exchange('http://127.0.0.1:1/api/v1/records'), seq: 1, failure: { kind: 'reset', message: 'socket hang up' } };
  delete (unanswered as { response?: unknown }).response;
  const retried = { ...exchange('http://127.0.0.1:1/api/v1/records'), seq: 2, retryOf: 1, check: 'RES-1 every listed record' };
  return [sent, unanswered, retried];
}

test('exchanges.har is the text JSON.stringify(har, null, 1) writes, with its entries or with none', () => {
  for (const log of [variedLog(), []]) {
    const text = Buffer.from(renderHar(doc, log)).toString('utf8');
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 1)}\n`);
    expect((JSON.parse(text) as { log: { entries: unknown[] } }).log.entries).toHaveLength(log.length);
  }
});

test('entries rendered ahead, as the log grows, are the entries the file is written with', async () => {
  const log: Exchange[] = [];
  const entries = new HarEntries();
  entries.follow(() => log, { everyMs: 1 });
  try {
    for (const e of variedLog()) {
      log.push(e);
      // An entry rendered ahead is handed out as it was rendered, not rendered again.
      await vi.waitFor(() => expect(entries.bytesOf(e)).toBe(entries.bytesOf(e)));
    }
    expect(Buffer.from(renderHar(doc, log, entries)).equals(Buffer.from(renderHar(doc, log)))).toBe(true);
  } finally {
    entries.stop();
  }
  // Stopped, it renders an exchange it never saw when asked for it.
  const late = exchange('http://127.0.0.1:1/api/v1/fields');
  log.push(late);
  await sleep(20);
  expect(entries.bytesOf(late)).not.toBe(entries.bytesOf(late));
});

test('past the bodies the whole file may hold, nothing more is rendered ahead and what was is let go', async () => {
  const [first, ...rest] = variedLog();
  const log = [first!];
  const entries = new HarEntries();
  // Past the first exchange's bodies, the file would hold the evidence only.
  entries.follow(() => log, { everyMs: 1, limit: bodiesOf(first!) });
  try {
    await vi.waitFor(() => expect(entries.bytesOf(first!)).toBe(entries.bytesOf(first!)));
    log.push(...rest);
    await vi.waitFor(() => expect(entries.bytesOf(first!)).not.toBe(entries.bytesOf(first!)));
    for (const e of log) expect(entries.bytesOf(e)).not.toBe(entries.bytesOf(e));
  } finally {
    entries.stop();
  }
});
