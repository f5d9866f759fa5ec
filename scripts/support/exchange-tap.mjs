// Preloaded (`node --import`) into the CLI run that `npm run coverage` makes, when
// EXCHANGE_TAP_FILE names a file: every exchange the broker records is written there at exit as
// {check, method, path, credential, status, bodies?}, for the dimension table of docs/coverage.md. Nothing
// else of an exchange leaves the process: no header value, no body, no query; paths go through the
// run's redactor, and of a request body only its classes are written (`bodies`: how it was labelled,
// whether it is a JSON object, whether it is large). The credential says whose key a request carried, a key revoked by then told apart:
// the broker knows the kind (`created`, `invalid`, ...), and the tap remembers, in memory only,
// the values of each creation response and which of them a 2xx DELETE named, so that a later
// request bearing one of those values is a revoked key's.
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.EXCHANGE_TAP_FILE;

/** The broker's kinds, in the words of the dimension table. */
const CREDENTIALS = {
  main: 'main key',
  other: 'second account',
  created: 'created key',
  candidate: 'created key',
  invalid: 'unknown key',
  none: 'none',
  malformed: 'malformed',
};

/** The classes of a request body, in the words of the dimension table (VOCABULARY.bodies). */
const BODIES = {
  object: 'JSON object',
  notObject: 'not a JSON object',
  unlabelled: 'no Content-Type',
  otherType: 'other Content-Type',
  large: 'over 100 KiB',
};

/** application/json, or a structured +json type, parameters aside. */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;
/** Above this many bytes a body is large: 100 KiB, the default limit of common body parsers (Express's among them). */
const LARGE_BODY = 100 * 1024;

/**
 * The classes of a request that carries a body or a Content-Type (none for one with neither): by
 * its label, and for a JSON label whether it parses as an object; over 100 KiB besides.
 */
export function bodyClasses(headers, body) {
  const type = headers['content-type'];
  if (body === undefined && type === undefined) return [];
  const text = body ?? '';
  const classes = [];
  if (type === undefined) classes.push(BODIES.unlabelled);
  else if (!JSON_MEDIA_TYPE.test(type.split(';')[0].trim())) classes.push(BODIES.otherType);
  else classes.push(isJsonObject(text) ? BODIES.object : BODIES.notObject);
  if (Buffer.byteLength(text) > LARGE_BODY) classes.push(BODIES.large);
  return classes;
}

function isJsonObject(text) {
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Every string value of a JSON body, at any depth. */
function stringsOf(value, out = []) {
  if (typeof value === 'string') out.push(value);
  else if (value && typeof value === 'object') for (const inner of Object.values(value)) stringsOf(inner, out);
  return out;
}

if (file && isMainThread) {
  // The broker publishes every exchange it records on a named channel (src/broker/broker.ts,
  // RECORDED): whichever copy of its module the run loaded, compiled, bundled or through tsx.
  const rows = [];
  /** The string values of each 2xx creation response. */
  const created = [];
  /** Authorization values of keys deleted with a 2xx. */
  const revoked = new Set();
  subscribe('conformance:exchange-recorded', ({ exchange, body, redact }) => {
    const { method, url, headers } = exchange.request;
    const status = exchange.response?.status ?? 0;
    const path = redact(new URL(url).pathname);
    const authorization = headers.authorization ?? null;
    let credential = CREDENTIALS[exchange.auth] ?? exchange.auth;
    if (authorization !== null && revoked.has(authorization) && ['created', 'candidate', 'invalid'].includes(exchange.auth)) credential = 'revoked key';
    const bodies = bodyClasses(headers, exchange.request.body);
    rows.push({ check: exchange.check ?? '', method, path, credential, status, ...(bodies.length > 0 ? { bodies } : {}) });
    if (status >= 200 && status < 300 && method === 'POST') {
      try {
        const values = stringsOf(JSON.parse(new TextDecoder().decode(body)));
        if (values.length > 0) created.push(values);
      } catch {
        // Not JSON: nothing to remember.
      }
    }
    if (status >= 200 && status < 300 && method === 'DELETE') {
      const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
      for (const values of created) if (values.includes(last)) for (const value of values) revoked.add(`Bearer ${value}`);
    }
  });
  // A process that recorded nothing (a child of the run, say) must not overwrite the run's file.
  process.on('exit', () => rows.length > 0 && writeFileSync(file, JSON.stringify(rows)));
}
