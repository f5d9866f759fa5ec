import { BESIDE, check, fromApi, snippet, isErrorEnvelope, isJsonMediaType, collections, fillPath, type CheckContext, type HttpResponse } from '../src/kit.js';
import { post, writes, type Sent, type Write } from './support/writes.js';
import { coveringArray } from './pairs/covering-array.js';

// GEN: general rules (API document, What the service does; Versioning). The run-wide phase also
// judges GEN-1, GEN-3 and GEN-5 over every response of the run (suites/run-wide.suite.ts).

check(
  'GEN-1',
  'an unknown path under /api/v1/ answers JSON',
  async (t) => {
    const res = await t.http.get('/api/v1/no_such_collection_exists');
    t.json(res);
  },
  { key: 'unknown-path', ...BESIDE },
);

check(
  'GEN-1',
  'an unsupported method answers JSON',
  async (t) => {
    const res = await t.http.send({ method: 'PATCH', path: '/api/v1/workspaces', body: {} });
    t.json(res);
  },
  { key: 'unsupported-method', ...BESIDE },
);

check(
  'GEN-1',
  'a path outside any version answers JSON',
  async (t) => {
    const res = await t.http.get('/api/');
    t.json(res);
  },
  { key: 'unversioned-path', ...BESIDE },
);

check(
  'GEN-2',
  'an endpoint under /api/v2/ is not served as v1',
  async (t) => {
    const v1 = await t.http.get('/api/v1/workspaces');
    const v2 = await t.http.get('/api/v2/workspaces');
    t.ensure(
      !(v2.status >= 200 && v2.status < 300 && v2.text === v1.text),
      'GET /api/v2/workspaces answers exactly what /api/v1/workspaces does: the version in the path is ignored',
      v2,
    );
  },
  { key: 'v2-path', ...BESIDE },
);

check(
  'GEN-2',
  'an endpoint with no version prefix is not served as v1',
  async (t) => {
    const v1 = await t.http.get('/api/v1/workspaces');
    const bare = await t.http.get('/api/workspaces');
    t.ensure(!(bare.status >= 200 && bare.status < 300 && bare.text === v1.text), 'GET /api/workspaces answers exactly what /api/v1/workspaces does', bare);
  },
  { key: 'no-version-prefix', ...BESIDE },
);

/**
 * Odd but harmless requests a client may send by mistake; none may produce a 5xx (GEN-3). Those
 * malformed at the HTTP level (a NUL byte, an invalid percent-encoding) are `frontEndFragile`:
 * nginx and other front ends refuse them before the API sees them, so their answer says
 * nothing about the API's envelope or headers.
 */
const ODD_REQUESTS: readonly { path: string; rawQuery?: string; frontEndFragile?: boolean }[] = [
  { path: '/api/v1/workspaces', rawQuery: 'page=%ZZ', frontEndFragile: true },
  { path: '/api/v1/workspaces', rawQuery: 'limit[]=1&page[x]=2' },
  { path: '/api/v1/records', rawQuery: `limit=${'9'.repeat(400)}` },
  { path: '/api/v1/records/%00', frontEndFragile: true },
  { path: `/api/v1/records/${'x'.repeat(2048)}` },
  { path: '/api/v1/workspaces/%E2%82%AC%F0%9F%98%80' },
  { path: '/api/v1/../v1/workspaces' },
  { path: '/api/v1//workspaces' },
];

check(
  'GEN-3',
  'odd paths and query strings never yield a 5xx, and are refused in JSON',
  async (t) => {
    for (const request of ODD_REQUESTS) {
      const res = await t.http.send({ method: 'GET', ...request });
      // A gateway's 502/503/504, still there after the client's retries, is the surroundings' answer,
      // not the API's: it says nothing of how the API takes the request.
      if (!fromApi(res.exchange)) continue;
      t.ensure(res.status < 500, () => `a malformed request was answered ${res.status}: ${snippet(res.text)}`, res);
      if (!request.frontEndFragile || res.exchange.response?.json === 'ok') continue;
      // Only a warning (GEN-3 is a SHOULD): a front end answering in its own words is common, and
      // the MUST clauses of the envelope and the content type judge well-formed requests only.
      const server = res.headers.server ? `the front end "${res.headers.server}"` : 'a front end, most likely,';
      t.fail(
        `a request malformed at the HTTP level was answered ${res.status} ${res.headers['content-type'] ?? '(no Content-Type)'} by ${server} before the API: ${snippet(res.text)}`,
        res,
      );
    }
  },
  { key: 'odd-requests', values: ['boundary', 'unicode', 'huge'], ...BESIDE },
);

/**
 * Each list and retrieval path of the document and the profile (a retrieval with an id the
 * preflight listed) with a trailing slash. Whether `/api/v1/workspaces/` is the list or no
 * endpoint at all the document does not say: served (200) and refused (404) are both readings.
 */
function slashedPaths(t: CheckContext): string[] {
  const out: string[] = [];
  for (const endpoint of Object.values(collections(t.profile))) {
    if (endpoint.list) out.push(`${endpoint.list}/`);
    const id = t.run.preflight.collections[endpoint.name]?.ids[0];
    if (endpoint.item && id !== undefined) out.push(`${fillPath(endpoint.item, id)}/`);
  }
  return out;
}

check(
  'GEN-3',
  'a trailing slash after each list and retrieval path never yields a 5xx',
  async (t) => {
    for (const path of slashedPaths(t)) {
      const res = await t.http.get(path);
      t.ensure(res.status < 500, () => `GET ${path} (a trailing slash) answered ${res.status}: ${snippet(res.text)}`, res);
    }
  },
  { key: 'trailing-slash', values: ['empty'], ...BESIDE },
);

/** Sends each try to its write; any 5xx is a finding (GEN-3). */
async function neverAServerError(t: CheckContext, tries: readonly { write: Write; what: string; sent: Sent }[]): Promise<void> {
  for (const { write, what, sent } of tries) {
    const res = await post(t, write, sent);
    t.ensure(res.status < 500, () => `[POST] ${write.path} (${write.label}) with ${what} answered ${res.status}: ${snippet(res.text)}`, res);
  }
}

// A target may read a JSON object sent without Content-Type, or as text/plain, and create the
// resource: the document asks clients for application/json (general rule 3) and says nothing of
// other types, so a 201 is as good as a 415. A key so created is deleted at once (`post`).
check(
  'GEN-3',
  'a POST body that is empty, without Content-Type, as text/plain or of several hundred KiB never yields a 5xx',
  async (t) => {
    await neverAServerError(
      t,
      writes(t, { mayAccept: true }).flatMap((write) => [
        // Not a GEN-4 body: a parser may read an empty body as no body, and no body as `{}`
        // (Express's body-parser), which a write may then accept. Only a 5xx is sure to be wrong.
        { write, what: 'an empty body labelled JSON', sent: { rawBody: '', contentType: 'application/json' } },
        { write, what: 'a JSON object and no Content-Type', sent: { rawBody: JSON.stringify(write.object('no-content-type')), contentType: null } },
        { write, what: 'a JSON object as text/plain', sent: { rawBody: JSON.stringify(write.object('text-plain')), contentType: 'text/plain' } },
        { write, what: 'a JSON object of several hundred KiB', sent: { body: write.large() } },
      ]),
    );
  },
  { key: 'unlabelled-and-large-bodies', values: ['empty', 'absent', 'huge'], writes: true, ...BESIDE },
);

check(
  'GEN-3',
  'empty and blank strings in every string field of every write never yield a 5xx',
  async (t) => {
    // ERR-3 and SUB-2 judge what an empty value means (400, 404 or 422); here only robustness.
    await neverAServerError(
      t,
      writes(t, { mayAccept: true }).flatMap((write) => ['', '   '].flatMap((blank) => write.blanked(blank).map(({ what, sent }) => ({ write, what, sent })))),
    );
  },
  { key: 'blank-strings', values: ['empty'], writes: true, ...BESIDE },
);

/** Bodies that are not JSON, or not a JSON object (GEN-4). */
const MALFORMED_BODIES: readonly { label: string; raw: string }[] = [
  { label: 'not JSON', raw: 'name=conformance' },
  { label: 'truncated JSON', raw: '{"name": "conformance' },
  { label: 'a JSON array', raw: '[{"name": "conformance"}]' },
  { label: 'a JSON string', raw: '"conformance"' },
  { label: 'JSON null', raw: 'null' },
];

/**
 * How a body is labelled: as JSON, as JSON with its charset (what most clients send, and a stack
 * may hand to another parser than the bare type's), without Content-Type, as text.
 */
const BODY_LABELS: readonly { readonly name: string; readonly contentType: string | null }[] = [
  { name: 'application/json', contentType: 'application/json' },
  { name: 'application/json; charset=utf-8', contentType: 'application/json; charset=utf-8' },
  { name: 'no Content-Type', contentType: null },
  { name: 'text/plain', contentType: 'text/plain' },
];

check(
  'GEN-4',
  'a body that is not a JSON object is refused with a 4xx error envelope: every pair of write, label (JSON, JSON with a charset, none, text) and body in some request',
  async (t) => {
    const all = writes(t, { mayAccept: false });
    // A covering array of strength 2, drawn from the run's seed: each label meets each body, and each
    // write each of them. A target that accepts such a body made a submission or a key: `post`
    // enters the one in the ledger and deletes the other.
    const dimensions = { write: all.map((w) => w.label), label: BODY_LABELS.map((l) => l.name), body: MALFORMED_BODIES.map((b) => b.label) };
    for (const row of coveringArray(dimensions, () => true, t.run.seed).rows) {
      const write = all.find((w) => w.label === row.write)!;
      const body = MALFORMED_BODIES.find((b) => b.label === row.body)!;
      const { contentType } = BODY_LABELS.find((l) => l.name === row.label)!;
      const res: HttpResponse = await post(t, write, { rawBody: body.raw, contentType });
      const what = `[POST] ${write.path} with a body that is ${body.label}, labelled ${row.label}`;
      t.ensure(res.status >= 400 && res.status < 500, () => `${what}, answered ${res.status}, not a 4xx`, res);
      t.ensure(isErrorEnvelope(res.json), () => `${what}: the ${res.status} is not an error envelope: ${snippet(res.text)}`, res);
    }
  },
  { key: 'malformed-body-everywhere', values: ['null', 'absent'], writes: true, ...BESIDE },
);

check(
  'GEN-5',
  'a list response is labelled with a JSON media type',
  async (t) => {
    const res = await t.http.get('/api/v1/workspaces');
    t.ensure(isJsonMediaType(res.headers['content-type']), () => `Content-Type is ${res.headers['content-type'] ?? 'missing'}`, res);
  },
  { key: 'list-media-type', ...BESIDE },
);
