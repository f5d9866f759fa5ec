import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HttpClient, TransportFailure, type ClientHooks } from '../src/http/client.js';
import type { Exchange } from '../src/http/exchange.js';

let server: Server;
let baseUrl: string;
const recorded: Exchange[] = [];
const seenHeaders: Record<string, string | string[] | undefined>[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seenHeaders.push(req.headers);
    switch (req.url) {
      case '/hang':
        return; // never answers
      case '/drip': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(() => res.write(' '), 200);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case '/huge':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('[');
        for (let i = 0; i < 2000; i++) res.write(`"${'x'.repeat(4096)}",`);
        return void res.end('0]');
      case '/html':
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end('<html><body>hello</body></html>');
      case '/redirect':
        res.writeHead(302, { location: 'http://elsewhere.invalid/' });
        return void res.end();
      case '/reset':
        return void req.socket.destroy();
      case '/page':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('{"items": [{"id": "a", "data": {"big": [1, 2, 3]}}, {"id": "b"}], "has_more": false, "total_count": 2}');
      case '/page-broken':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('{"items": [{"id": "a", "data": {"big": [1, 2, 3}}], "has_more": false, "total_count": 1}');
      case '/latin1':
      case '/latin1-page': {
        // "é" as the one Latin-1 byte 0xE9 under a label that promises UTF-8.
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        const json = req.url === '/latin1' ? '{"name": "Café"}' : '{"items": [{"id": "a", "name": "Café"}], "has_more": false, "total_count": 1}';
        return void res.end(Buffer.from(json, 'latin1'));
      }
      default:
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('{"ok":true}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const hooks: ClientHooks = { acquire: async () => {}, record: async (exchange) => void recorded.push(exchange) };
const client = () => new HttpClient({ baseUrl, keys: { main: 'sk_main', other: null }, extraHeaders: [['X-Gateway', 'g1']], timeoutMs: 800, hooks });

async function failureOf(path: string, options: { maxBytes?: number } = {}): Promise<TransportFailure> {
  try {
    await client().get(path, options);
  } catch (error) {
    if (error instanceof TransportFailure) return error;
    throw error;
  }
  throw new Error('expected a transport failure');
}

describe('HTTP client', () => {
  test('sends the Bearer key and the extra gateway headers, and records the exchange', async () => {
    const res = await client().get('/ok');
    expect(res.json).toEqual({ ok: true });
    const sent = seenHeaders.at(-1)!;
    expect(sent.authorization).toBe('Bearer sk_main');
    expect(sent['x-gateway']).toBe('g1');
    expect(recorded.at(-1)?.response?.status).toBe(200);
  });

  test('a server that never answers fails the request at the deadline', async () => {
    const started = Date.now();
    const failure = await failureOf('/hang');
    expect(failure.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test('a body that drips forever is cut at the total deadline', async () => {
    const started = Date.now();
    expect((await failureOf('/drip')).kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test('a body over the size cap is refused as too large', async () => {
    const failure = await failureOf('/huge', { maxBytes: 100_000 });
    expect(failure.kind).toBe('too_large');
    expect(failure.message).toMatch(/larger than 100000 bytes/);
  });

  test('a connection reset is reported as such', async () => {
    expect((await failureOf('/reset')).kind).toBe('reset');
  });

  test('a body that is not JSON is kept as text with the parse state, not thrown', async () => {
    const res = await client().get('/html');
    expect(res.json).toBeUndefined();
    expect(res.exchange.response?.json).toBe('invalid');
    expect(res.text).toContain('<html>');
  });

  test('a list page read for a walk keeps the envelope and only the ids of its items; a broken one is still not JSON', async () => {
    const page = await client().get('/page', { listSkeleton: { idField: 'id' } });
    expect(page.json).toStrictEqual({ items: [{ id: 'a' }, { id: 'b' }], has_more: false, total_count: 2 });
    expect(page.exchange.response?.json).toBe('ok');
    expect(page.text).toContain('"big"');
    const broken = await client().get('/page-broken', { listSkeleton: { idField: 'id' } });
    expect(broken.json).toBeUndefined();
    expect(broken.exchange.response?.json).toBe('invalid');
  });

  test('a body that is not UTF-8 is not JSON, naming the offset of its first bad byte, and keeps its lenient value for other clauses', async () => {
    const res = await client().get('/latin1');
    expect(res.exchange.response?.json).toBe('invalid');
    expect(res.exchange.response?.jsonProblem).toContain('0xE9 at offset 13');
    expect(res.json).toEqual({ name: 'Caf\uFFFD' });
  });

  test('a list page that is not UTF-8 is not JSON for the walk either', async () => {
    const res = await client().get('/latin1-page', { listSkeleton: { idField: 'id' } });
    expect(res.exchange.response?.json).toBe('invalid');
    expect(res.exchange.response?.jsonProblem).toContain('0xE9 at offset 35');
  });

  test('redirects are never followed', async () => {
    const res = await client().get('/redirect');
    expect(res.status).toBe(302);
    expect(seenHeaders.filter((h) => h.host?.includes('elsewhere'))).toEqual([]);
  });

  test('an unreachable target is a refused connection', async () => {
    const dead = new HttpClient({ baseUrl: 'http://127.0.0.1:9', keys: { main: 'k', other: null }, extraHeaders: [], timeoutMs: 800, hooks });
    await expect(dead.get('/x')).rejects.toMatchObject({ kind: 'refused' });
  });
});
