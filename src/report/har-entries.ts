import { STATUS_CODES } from 'node:http';
import type { Exchange } from '../http/exchange.js';
import { originOf } from './exchange-origin.js';

/**
 * Bodies (request and response, in characters) past which `exchanges.har` keeps the exchanges of
 * evidence only: a whole run against the reference holds some 2 MB of bodies, but a target with
 * large pages could make the file too big for the tools that open it (browser devtools, Insomnia).
 */
export const HAR_FULL_LOG_LIMIT = 32 * 1024 * 1024;

/** An exchange's bodies, in characters, as they count toward `HAR_FULL_LOG_LIMIT`. */
export function bodiesOf(exchange: Exchange): number {
  return (exchange.request.body?.length ?? 0) + (exchange.response?.body.length ?? 0);
}

/**
 * The entries of `exchanges.har`, each rendered once, in UTF-8: where the run follows its log
 * (`follow`), while it waits on the target, so that the end of a run renders only what came last.
 * A local run's log is some 1,900 exchanges and 8 MB of HAR: rendering it at the end took 50 to
 * 60 ms of the run's last, single-threaded stretch, while the main thread had sat idle through the
 * checks; as one string, joined and then encoded, some 40 ms more.
 *
 * An entry is kept by the exchange it was rendered from, and a logged exchange never changes after
 * the broker recorded it; an exchange the cache never saw (a copy whose URL was redacted, the
 * evidence of a cut log) is rendered when asked for.
 */
export class HarEntries {
  #entries = new WeakMap<Exchange, Uint8Array>();
  #timer: NodeJS.Timeout | null = null;

  /** The exchange's entry, as it stands in `exchanges.har`. */
  bytesOf(exchange: Exchange): Uint8Array {
    return this.#entries.get(exchange) ?? entryBytes(exchange);
  }

  /**
   * Renders the entries of `log()` as it grows, a slice of at most `sliceMs` every `everyMs`, until
   * `stop`: a slice never holds the thread long enough to delay the broker's answers to the checks.
   * The timer never keeps the process alive. Once the log's bodies pass `limit`, the file will hold
   * the evidence only: what was rendered is let go, and the rest is rendered when asked for.
   */
  follow(log: () => readonly Exchange[], { everyMs = 50, sliceMs = 4, limit = HAR_FULL_LOG_LIMIT } = {}): void {
    this.stop();
    let done = 0;
    let bodies = 0;
    this.#timer = setInterval(() => {
      const exchanges = log();
      const until = performance.now() + sliceMs;
      for (; done < exchanges.length && performance.now() < until; done++) {
        const exchange = exchanges[done]!;
        bodies += bodiesOf(exchange);
        if (bodies > limit) {
          this.stop();
          this.#entries = new WeakMap();
          return;
        }
        if (!this.#entries.has(exchange)) this.#entries.set(exchange, entryBytes(exchange));
      }
    }, everyMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }
}

/** Where `log.entries`' items stand in the file: `JSON.stringify(har, null, 1)` indents them by three. */
const ENTRY_INDENT = '   ';

/** One exchange's entry as `JSON.stringify(har, null, 1)` writes it among `log.entries` (no raw newline is in JSON text but its own). */
function entryBytes(exchange: Exchange): Uint8Array {
  return Buffer.from(ENTRY_INDENT + JSON.stringify(entryOf(exchange), null, 1).replaceAll('\n', `\n${ENTRY_INDENT}`), 'utf8');
}

/**
 * The query of a logged URL, read without parsing the URL: GEN-3 sends URLs a parser refuses (a raw
 * NUL, an invalid percent-encoding), and a redacted log may hold a placeholder where a host was.
 */
function queryOf(url: string): { name: string; value: string }[] {
  const at = url.indexOf('?');
  if (at < 0) return [];
  const query = url.slice(at + 1).split('#')[0]!;
  try {
    return [...new URLSearchParams(query)].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function entryOf(e: Exchange) {
  const requestType = header(e.request.headers, 'content-type') ?? 'application/octet-stream';
  const responseType = e.response ? (header(e.response.headers, 'content-type') ?? '') : '';
  return {
    startedDateTime: e.startedAt,
    time: Math.max(0, e.durationMs),
    request: {
      method: e.request.method,
      url: e.request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headers(e.request.headers),
      queryString: queryOf(e.request.url),
      ...(e.request.body !== undefined ? { postData: { mimeType: requestType, text: e.request.body } } : {}),
      headersSize: -1,
      bodySize: e.request.bytes ?? (e.request.body === undefined ? 0 : Buffer.byteLength(e.request.body)),
    },
    response: e.response
      ? {
          status: e.response.status,
          statusText: STATUS_CODES[e.response.status] ?? '',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: headers(e.response.headers),
          content: {
            size: e.response.bytes,
            mimeType: responseType,
            text: e.response.body,
            ...(e.response.truncated ? { comment: `cut to ${e.response.body.length} characters of ${e.response.bytes} bytes` } : {}),
          },
          redirectURL: header(e.response.headers, 'location') ?? '',
          headersSize: -1,
          bodySize: e.response.bytes,
        }
      : // HAR has no entry without a response: status 0 is what browsers write for a request that got none.
        {
          status: 0,
          statusText: '',
          httpVersion: '',
          cookies: [],
          headers: [],
          content: { size: 0, mimeType: '' },
          redirectURL: '',
          headersSize: -1,
          bodySize: -1,
          comment: `no response: ${e.failure?.kind ?? 'other'}: ${e.failure?.message ?? 'unknown'}`,
        },
    cache: {},
    timings: { send: 0, wait: Math.max(0, e.durationMs), receive: 0 },
    comment: commentOf(e),
    ...(e.seq !== undefined ? { _seq: e.seq } : {}),
    ...(e.retryOf !== undefined ? { _retryOf: e.retryOf } : {}),
  };
}

function commentOf(e: Exchange): string {
  const { clause, check } = originOf(e);
  const who = clause ? `clause ${clause}, check: ${check}` : check ? `the run's ${check}, no clause` : 'no check named it';
  const retry = e.retryOf !== undefined ? `; a retry of #${e.retryOf}${retryCause(e)}` : '';
  return `${e.seq !== undefined ? `#${e.seq} ` : ''}${who}${retry}`;
}

/** The transport's reason for a retry, where the log says it (`retryCause`); a 429 retry before it said none. */
function retryCause(e: Exchange): string {
  const cause = (e as { retryCause?: unknown }).retryCause;
  return typeof cause === 'string' && cause ? ` (${cause})` : '';
}

function headers(record: Record<string, string>) {
  return Object.entries(record).map(([name, value]) => ({ name, value }));
}

function header(record: Record<string, string>, name: string): string | undefined {
  const found = Object.keys(record).find((k) => k.toLowerCase() === name);
  return found === undefined ? undefined : record[found];
}
