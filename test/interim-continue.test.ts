import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { interimHead } from '../src/http/interim-continue.js';
import { closeDispatcher, transport } from '../src/http/transport.js';
import { getOf } from './support/held-thread.js';
import { startForwardProxy } from './network/forward-proxy.js';

// RFC 9110 §15.2: a client must parse 1xx responses it did not ask for. A server that sends an
// unasked 100 (Continue) before its answer is answered as HTTP reads it (src/http/interim-continue.ts),
// not taken for a reset. The target writes raw bytes, so that heads split across packets, several
// interim heads, and a body that quotes a 100 head are each sent as the wire would carry them.

const BODY = '{"note":"HTTP/1.1 100 Continue\\r\\n\\r\\n"}';

function answer(path: string): string[] {
  const final = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(BODY)}\r\n\r\n${BODY}`;
  const interim = 'HTTP/1.1 100 Continue\r\n\r\n';
  switch (path) {
    case '/one':
      return [interim + final];
    case '/split':
      // The interim head in three packets, the final answer in a fourth.
      return ['HTTP/1.', '1 100 Continue\r\n', '\r\n', final];
    case '/many':
      return [interim, 'HTTP/1.1 102 Processing\r\n\r\n' + interim, 'HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\n', interim + interim, final];
    case '/http10':
      return ['HTTP/1.0 100 Continue\r\nx-note: early\r\n\r\n' + final];
    default:
      return [final];
  }
}

let server: Server;
let baseUrl: string;
const sockets = new Set<Socket>();
let connections = 0;

beforeAll(async () => {
  server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffered = '';
    socket.on('data', (data) => {
      buffered += data.toString('latin1');
      for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
        const head = buffered.slice(0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        const path = head.split(' ')[1]!;
        // Each piece a packet of its own: written a turn of the loop apart.
        void answer(path).reduce(
          (previous, piece) => previous.then(() => new Promise<void>((done) => socket.write(piece, () => setImmediate(done)))),
          Promise.resolve(),
        );
      }
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address() as { port: number };
  baseUrl = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await closeDispatcher();
  for (const socket of sockets) socket.destroy();
  await new Promise((closed) => server.close(closed));
});

test.each(['/one', '/split', '/many', '/http10'])('an unasked 100 (Continue) before the answer to %s is skipped, and the answer read whole', async (path) => {
  const res = await transport()(getOf(baseUrl, path, 5000));
  expect(res.status).toBe(200);
  expect(res.json).toEqual(JSON.parse(BODY));
});

test('a POST answered with a 100 first is read, and the connection goes on serving the requests after it', async () => {
  const send = transport();
  const before = connections;
  for (const path of ['/one', '/plain', '/split', '/plain', '/many']) {
    const res = await send({ ...getOf(baseUrl, path, 5000), method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    // A body that quotes a 100 head, after the answer began, is the answer's own.
    expect(res.json).toEqual(JSON.parse(BODY));
  }
  // One connection served them all (the one the tests before left idle, or one new).
  expect(connections - before).toBeLessThanOrEqual(1);
});

test('through HTTP_PROXY an unasked 100 relayed in the tunnel is skipped too, and the answer read whole', async () => {
  const proxy = await startForwardProxy();
  const before = { HTTP_PROXY: process.env['HTTP_PROXY'], NO_PROXY: process.env['NO_PROXY'] };
  // The pools are made anew for the proxy, and again after it, as a run's process makes them.
  await closeDispatcher();
  process.env['HTTP_PROXY'] = proxy.url;
  delete process.env['NO_PROXY'];
  try {
    for (const path of ['/one', '/split', '/many']) {
      const res = await transport()({ ...getOf(baseUrl, path, 5000), method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(200);
      expect(res.json).toEqual(JSON.parse(BODY));
    }
    expect(proxy.seen.length).toBeGreaterThan(0);
  } finally {
    await closeDispatcher();
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await proxy.close();
  }
});

test('only a 100 head is skipped: 102 and 103 are left to the parser with the response still to begin, a final answer or a 101 is the parser’s, and a head still arriving is waited for', () => {
  const head = (text: string) => interimHead(Buffer.from(text, 'latin1'));
  expect(head('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200')).toEqual({ kind: 'continue', length: 25 });
  expect(head('HTTP/1.1 100\r\n\r\n')).toEqual({ kind: 'continue', length: 16 });
  expect(head('HTTP/1.1 200 OK\r\n')).toEqual({ kind: 'final' });
  expect(head('HTTP/1.1 1000 x\r\n\r\n')).toEqual({ kind: 'final' });
  expect(head('HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 100')).toEqual({ kind: 'interim', length: 27 });
  expect(head('HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\n')).toEqual({ kind: 'interim', length: 40 });
  expect(head('HTTP/1.1 101 Switching Protocols\r\n\r\n')).toEqual({ kind: 'final' });
  expect(head('HTTP/1.')).toEqual({ kind: 'more' });
  expect(head('HTTP/1.1 100 Continue\r\n')).toEqual({ kind: 'more' });
  expect(head('')).toEqual({ kind: 'more' });
  expect(head('<html>')).toEqual({ kind: 'final' });
});
