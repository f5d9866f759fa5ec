import { check, snippet, isErrorEnvelope, isJsonMediaType } from '../src/kit.js';

// GEN: general rules (API document, What the service does; Versioning). The run-wide phase also
// judges GEN-1, GEN-3 and GEN-5 over every response of the run (suites/run-wide.suite.ts).

check('GEN-1', 'an unknown path under /api/v1/ answers JSON', async (t) => {
  const res = await t.http.get('/api/v1/no_such_collection_exists');
  t.json(res);
});

check('GEN-1', 'an unsupported method answers JSON', async (t) => {
  const res = await t.http.send({ method: 'PATCH', path: '/api/v1/workspaces', body: {} });
  t.json(res);
});

check('GEN-1', 'a path outside any version answers JSON', async (t) => {
  const res = await t.http.get('/api/');
  t.json(res);
});

check('GEN-2', 'an endpoint under /api/v2/ is not served as v1', async (t) => {
  const v1 = await t.http.get('/api/v1/workspaces');
  const v2 = await t.http.get('/api/v2/workspaces');
  t.ensure(
    !(v2.status >= 200 && v2.status < 300 && v2.text === v1.text),
    'GET /api/v2/workspaces answers exactly what /api/v1/workspaces does: the version in the path is ignored',
    v2,
  );
});

check('GEN-2', 'an endpoint with no version prefix is not served as v1', async (t) => {
  const v1 = await t.http.get('/api/v1/workspaces');
  const bare = await t.http.get('/api/workspaces');
  t.ensure(!(bare.status >= 200 && bare.status < 300 && bare.text === v1.text), 'GET /api/workspaces answers exactly what /api/v1/workspaces does', bare);
});

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

check('GEN-3', 'odd paths and query strings never yield a 5xx, and are refused in JSON', async (t) => {
  for (const request of ODD_REQUESTS) {
    const res = await t.http.send({ method: 'GET', ...request });
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
});

/** Bodies that are not JSON, or not a JSON object (GEN-4). */
const MALFORMED_BODIES: readonly { label: string; raw: string }[] = [
  { label: 'not JSON', raw: 'name=conformance' },
  { label: 'truncated JSON', raw: '{"name": "conformance' },
  { label: 'a JSON array', raw: '[{"name": "conformance"}]' },
  { label: 'a JSON string', raw: '"conformance"' },
  { label: 'JSON null', raw: 'null' },
];

check(
  'GEN-4',
  'a body that is not a JSON object is refused with a 4xx error envelope',
  async (t) => {
    const param = t.profile.submissions.workspaceQueryParam;
    const workspace = t.run.preflight.collections.workspaces?.ids[0];
    const query = param && workspace ? { [param]: workspace } : undefined;
    for (const body of MALFORMED_BODIES) {
      const res = await t.http.send({ method: 'POST', path: '/api/v1/submissions', query, rawBody: body.raw });
      t.ensure(res.status >= 400 && res.status < 500, () => `a body that is ${body.label} was answered ${res.status}, not a 4xx`, res);
      t.ensure(isErrorEnvelope(res.json), () => `the ${res.status} for a body that is ${body.label} is not an error envelope: ${snippet(res.text)}`, res);
    }
  },
  { writes: true },
);

check('GEN-5', 'a list response is labelled with a JSON media type', async (t) => {
  const res = await t.http.get('/api/v1/workspaces');
  t.ensure(isJsonMediaType(res.headers['content-type']), () => `Content-Type is ${res.headers['content-type'] ?? 'missing'}`, res);
});
