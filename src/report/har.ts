import { STATUS_CODES } from 'node:http';
import type { Exchange } from '../http/exchange.js';
import type { ConformanceDocument } from './document.js';
import { originOf } from './exchange-origin.js';

/**
 * Bodies (request and response, in characters) past which `exchanges.har` keeps the exchanges of
 * evidence only: a whole run against the reference holds some 2 MB of bodies, but a target with
 * large pages could make the file too big for the tools that open it (browser devtools, Insomnia).
 */
export const HAR_FULL_LOG_LIMIT = 32 * 1024 * 1024;

/**
 * `exchanges.har`: the run's exchanges in HAR 1.2, which browser devtools, Insomnia, Postman and
 * Charles open. Every exchange of the run, in the order sent, or past `HAR_FULL_LOG_LIMIT` the
 * exchanges of evidence; each entry's comment names the check and clause that made it. Rendered
 * from the log as `writeReports` hands it (redacted, or in its URLs only where every secret is
 * plain), and redacted as a text, like every report.
 */
export function renderHar(doc: ConformanceDocument, log: readonly Exchange[]): string {
  const bodies = log.reduce((n, e) => n + (e.request.body?.length ?? 0) + (e.response?.body.length ?? 0), 0);
  const whole = bodies <= HAR_FULL_LOG_LIMIT;
  const exchanges = whole ? log : evidenceOf(doc, log);
  const har = {
    log: {
      version: '1.2',
      creator: { name: 'api-v1-conformance', version: doc.suite.version },
      pages: [],
      entries: exchanges.map(entryOf),
      comment: whole
        ? `every exchange of the run against ${doc.target.baseUrl} (${log.length}), in the order sent`
        : `the exchanges of evidence only (${exchanges.length} of ${log.length}): the run's bodies (${bodies} characters) are past ${HAR_FULL_LOG_LIMIT}`,
    },
  };
  return `${JSON.stringify(har, null, 1)}\n`;
}

/** The evidence's exchanges from the log (whole, where the report's evidence is cut), or as the report holds them. */
function evidenceOf(doc: ConformanceDocument, log: readonly Exchange[]): Exchange[] {
  const bySeq = new Map(log.filter((e) => e.seq !== undefined).map((e) => [e.seq!, e]));
  const seen = new Set<number>();
  const out: Exchange[] = [];
  for (const clause of doc.clauses) {
    for (const check of clause.checks) {
      for (const e of check.evidence ?? []) {
        if (e.seq !== undefined && seen.has(e.seq)) continue;
        if (e.seq !== undefined) seen.add(e.seq);
        out.push((e.seq !== undefined && bySeq.get(e.seq)) || e);
      }
    }
  }
  return out.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
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
