import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { responderOf } from '../src/http/exchange.js';
import { TransportFailure } from '../src/http/failures.js';
import { compose, type Send } from '../src/http/layer.js';
import { retryUnplanned429 } from '../src/http/layers/retry-429.js';
import { retryUnanswered } from '../src/http/layers/retry-unanswered.js';
import type { Outgoing } from '../src/http/request.js';
import { closeDispatcher, transport } from '../src/http/transport.js';
import { fakeTransport, outgoing, type Turn } from './support/fake-transport.js';

function retrying(turns: Turn[], sent: Outgoing[] = [], slept: number[] = []): Send {
  return compose([retryUnanswered({ sleep: async (ms) => void slept.push(ms) })], fakeTransport(turns, sent));
}

describe('who answered', () => {
  test('a 502, 503 or 504 is a front end; every other status, a 500 included, is the API', () => {
    expect([502, 503, 504].map(responderOf)).toEqual(['front-end', 'front-end', 'front-end']);
    expect([200, 204, 400, 401, 404, 422, 429, 500, 501].map(responderOf)).toEqual(Array(9).fill('api'));
  });

  describe('on the wire', () => {
    let server: Server;
    let base: string;
    beforeAll(async () => {
      server = createServer((req, res) => {
        if (req.url === '/html-503') {
          res.writeHead(503, { 'content-type': 'text/html', 'retry-after': '1' }).end('<html><body>503 Service Unavailable</body></html>');
        } else if (req.url === '/api-500') {
          res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"type":"api_error"}}');
        } else {
          req.socket.destroy();
        }
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await closeDispatcher();
      await new Promise((resolve) => server.close(resolve));
    });
    const send = (path: string, baseUrl = base) => transport()({ ...outgoing({ path }), url: `${baseUrl}${path}` });

    test("an HTML 503 page is a front end's answer, a 500 the API's", async () => {
      expect((await send('/html-503')).exchange.answeredBy).toBe('front-end');
      expect((await send('/api-500')).exchange.answeredBy).toBe('api');
    });

    test('a connection closed before any response is an unanswered reset; a refused one is unanswered, with no responder', async () => {
      const reset = await send('/hang-up').catch((error: unknown) => error);
      expect(reset).toBeInstanceOf(TransportFailure);
      expect([(reset as TransportFailure).kind, (reset as TransportFailure).unanswered]).toEqual(['reset', true]);
      const refused = await send('/x', 'http://127.0.0.1:1').catch((error: unknown) => error);
      expect([(refused as TransportFailure).kind, (refused as TransportFailure).unanswered]).toEqual(['refused', true]);
      expect((refused as TransportFailure).exchange.answeredBy).toBeUndefined();
    });
  });
});

describe('the retry of what the API never answered', () => {
  test("a front end's 503 is sent again, naming the attempt and its cause, and the API's answer is returned", async () => {
    const sent: Outgoing[] = [];
    const res = await retrying([503, 502, 200], sent)(outgoing());
    expect(res.status).toBe(200);
    expect(sent.map((r) => [r.retryOf, r.retryCause])).toEqual([
      [undefined, undefined],
      [0, 'front-end'],
      [1, 'front-end'],
    ]);
  });

  test("a rate-limit burst's request is sent again at once, not after the front end's Retry-After, which would stretch the burst past its window", async () => {
    const slept: number[] = [];
    const res = await retrying([{ status: 503, headers: { 'retry-after': '1' } }, 200], [], slept)(outgoing({ expect429: true, pace: false }));
    expect(res.status).toBe(200);
    expect(slept).toEqual([50]);
  });

  test('Retry-After is honoured up to 10 s; without one, the back-off doubles from half a second', async () => {
    const slept: number[] = [];
    await retrying([{ status: 503, headers: { 'retry-after': '2' } }, { status: 503, headers: { 'retry-after': '3600' } }, 504, 200], [], slept)(outgoing());
    expect(slept).toEqual([2000, 10_000, 2000]);
  });

  test('a read met by a reset before any response is sent again; a reset mid-response is the answer, a finding', async () => {
    const sent: Outgoing[] = [];
    expect((await retrying([{ fail: 'reset' }, 200], sent)(outgoing())).status).toBe(200);
    expect(sent[1]!.retryCause).toBe('transport');
    const midBody = await retrying([{ fail: 'reset', responseStarted: true }])(outgoing()).catch((error: unknown) => error);
    expect((midBody as TransportFailure).unanswered).toBe(false);
  });

  test('after three retries the request is unanswered: a TransportFailure that says so, never a response', async () => {
    const refused = await retrying([{ fail: 'refused' }, { fail: 'refused' }, { fail: 'refused' }, { fail: 'refused' }])(outgoing()).catch((e: unknown) => e);
    expect((refused as TransportFailure).message).toMatch(/refused \(after 3 retries\)$/);
    expect((refused as TransportFailure).unanswered).toBe(true);
    const fronted = await retrying([503, 503, 503, 504])(outgoing()).catch((e: unknown) => e);
    expect((fronted as TransportFailure).kind).toBe('front-end');
    expect((fronted as TransportFailure).message).toMatch(
      /answered 504, a status absent from the API's error table, so taken for a front end's and never judged \(after 3 retries\)$/,
    );
    expect((fronted as TransportFailure).unanswered).toBe(true);
  });

  test('a write is sent again only where nothing can have been created: refused, or a 503', async () => {
    const sent: Outgoing[] = [];
    const post = outgoing({ method: 'POST', body: {} });
    expect((await retrying([{ fail: 'refused' }, 503, 201], sent)(post)).status).toBe(201);
    expect(sent).toHaveLength(3);
    for (const turn of [502, 504, { fail: 'reset' } as Turn]) {
      const once: Outgoing[] = [];
      const failure = await retrying([turn, 201], once)(post).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(TransportFailure);
      expect((failure as TransportFailure).unanswered).toBe(true);
      expect(once).toHaveLength(1);
    }
    const deletion: Outgoing[] = [];
    await retrying([504, 204], deletion)(outgoing({ method: 'DELETE' })).catch(() => undefined);
    expect(deletion).toHaveLength(1);
    // The teardown's DELETE takes a second answer's 404 for done: sent again like a read.
    const teardown: Outgoing[] = [];
    expect((await retrying([{ fail: 'reset' }, 504, 404], teardown)(outgoing({ method: 'DELETE', resendable: true }))).status).toBe(404);
    expect(teardown).toHaveLength(3);
  });

  test("the API's own answers are never retried: a 500 api_error, a 404, a timeout", async () => {
    const sent: Outgoing[] = [];
    expect((await retrying([500], sent)(outgoing())).status).toBe(500);
    expect((await retrying([404], sent)(outgoing())).status).toBe(404);
    const timeout = await retrying([{ fail: 'timeout' }], sent)(outgoing()).catch((e: unknown) => e);
    expect((timeout as TransportFailure).unanswered).toBe(false);
    expect(sent).toHaveLength(3);
  });

  test("a malformed request is judged on the answer after a gateway's retries, and one still 502 is returned as it is, for GEN-3 to pass over", async () => {
    const sent: Outgoing[] = [];
    expect((await retrying([503, 400], sent)(outgoing({ frontEndFragile: true }))).status).toBe(400);
    expect(sent).toHaveLength(2);
    expect((await retrying([502, 502, 502, 502])(outgoing({ frontEndFragile: true }))).status).toBe(502);
  });

  test('an unplanned 429 retried says so: retryCause 429', async () => {
    const sent: Outgoing[] = [];
    await compose([retryUnplanned429({ sleep: async () => {} })], fakeTransport([429, 200], sent))(outgoing());
    expect(sent.map((r) => r.retryCause)).toEqual([undefined, '429']);
  });
});
