import { responderOf, type Exchange, type TransportFailureKind } from '../../src/http/exchange.js';
import { TransportFailure } from '../../src/http/failures.js';
import type { Send } from '../../src/http/layer.js';
import { prepare, type HttpResponse, type Outgoing, type RequestSpec } from '../../src/http/request.js';

// The client's layers tested alone: a transport that meets what the test says, with no server.

const addressing = { baseUrl: 'http://target.test', keys: { main: 'sk_main', other: null }, extraHeaders: [] };

/** A prepared GET of the workspace list, or of what `spec` says. */
export const outgoing = (spec: Partial<RequestSpec> = {}): Outgoing => prepare({ path: '/api/v1/workspaces', ...spec }, addressing, 'a check');

/** What the fake transport meets for each request, in turn: a status (with headers), or a transport failure. */
export type Turn = number | { status: number; headers?: Record<string, string> } | { fail: TransportFailureKind; responseStarted?: boolean };

/**
 * A transport that meets the turns given, one per request (200 once they run out), keeps what it
 * was sent, and numbers each exchange as the broker would; `headers` go on every response that
 * names none of its own.
 */
export function fakeTransport(turns: Turn[], sent: Outgoing[] = [], headers: Record<string, string> = {}): Send {
  let seq = 0;
  return async (request) => {
    sent.push(request);
    const turn = turns.shift() ?? 200;
    const exchange: Exchange = {
      seq: seq++,
      startedAt: '',
      durationMs: 0,
      auth: request.auth,
      bucket: request.bucket,
      request: { method: request.method, url: request.url, headers: {} },
    };
    if (typeof turn === 'object' && 'fail' in turn) {
      throw new TransportFailure(turn.fail, `[${request.method}] "${request.url}": ${turn.fail}`, exchange, { responseStarted: turn.responseStarted ?? false });
    }
    const answer = typeof turn === 'number' ? { status: turn, headers } : { status: turn.status, headers: turn.headers ?? headers };
    exchange.answeredBy = responderOf(answer.status);
    return { ...answer, text: '{}', raw: Buffer.from('{}'), json: {}, exchange } satisfies HttpResponse;
  };
}
