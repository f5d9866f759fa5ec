// Smoke test: starts server.mjs, exercises every endpoint and error path, stops it.
//   node variants/blind-express/smoke-test.mjs
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import assert from 'node:assert/strict';

const here = path.dirname(fileURLToPath(import.meta.url));
const WINDOW = 3;
const child = spawn(process.execPath, [path.join(here, 'server.mjs'), '--port', '0', '--window-seconds', String(WINDOW)], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
process.on('exit', () => {
  if (child.exitCode === null) child.kill('SIGTERM');
});
const t0 = Date.now();
const info = await new Promise((resolve, reject) => {
  let buf = '';
  child.stdout.on('data', (d) => {
    buf += d;
    const nl = buf.indexOf('\n');
    if (nl !== -1) resolve(JSON.parse(buf.slice(0, nl)));
  });
  child.on('exit', (c) => reject(new Error(`exited ${c}`)));
});
console.log(`started in ${Date.now() - t0} ms`, info.url);
const { url: BASE, keys } = info;

let failures = 0;
let checks = 0;
function check(name, fn) {
  checks++;
  try {
    fn();
  } catch (e) {
    failures++;
    console.log(`FAIL ${name}: ${e.message}`);
  }
}

let waited = 0;
async function req(method, p, opts = {}) {
  for (;;) {
    const r = await req1(method, p, opts);
    if (r.status !== 429 || opts.noRetry) return r;
    const ra = Number(r.headers.get('retry-after'));
    waited++;
    await new Promise((res) => setTimeout(res, ra * 1000 + 20));
  }
}
async function req1(method, p, { key = keys.main, body, headers = {}, raw } = {}) {
  const h = { ...headers };
  if (key !== null) h.authorization = `Bearer ${key}`;
  let payload;
  if (raw !== undefined) payload = raw;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    h['content-type'] = 'application/json';
  }
  const res = await fetch(BASE + p, { method, headers: h, body: payload });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = Symbol('not json');
  }
  return { status: res.status, headers: res.headers, text, json };
}

function isEnvelope(j) {
  return (
    j &&
    typeof j.error === 'object' &&
    typeof j.error.type === 'string' &&
    typeof j.error.message === 'string' &&
    (j.error.code === null || typeof j.error.code === 'string') &&
    (j.error.param === null || typeof j.error.param === 'string')
  );
}
const expectErr = (r, status, type, extra = {}) => {
  assert.equal(r.status, status, `${r.status} ${r.text}`);
  assert.ok(isEnvelope(r.json), r.text);
  assert.equal(r.json.error.type, type);
  for (const [k, v] of Object.entries(extra)) assert.deepEqual(r.json.error[k], v, `${k}: ${r.text}`);
};

async function walk(p, limit, key = keys.main) {
  const all = [];
  let total;
  for (let page = 1; ; page++) {
    const sep = p.includes('?') ? '&' : '?';
    const r = await req('GET', `${p}${sep}page=${page}&limit=${limit}`, { key });
    assert.equal(r.status, 200, r.text);
    total = r.json.total_count;
    all.push(...r.json.items);
    if (!r.json.has_more) {
      assert.equal(page, Math.max(1, Math.ceil(total / limit)));
      break;
    }
    assert.equal(r.json.items.length, limit);
  }
  assert.equal(all.length, total);
  assert.equal(new Set(all.map((x) => x.id)).size, total);
  return all;
}

// ---------- lists and retrievals ----------
const collections = ['workspaces', 'governance_models', 'records', 'taxonomies', 'fields', 'picklists'];
const data = {};
for (const c of collections) {
  const r = await req('GET', `/api/v1/${c}`);
  check(`${c} list`, () => {
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type'), /^application\/json/);
    assert.ok(Array.isArray(r.json.items));
    assert.equal(typeof r.json.has_more, 'boolean');
    assert.ok(Number.isInteger(r.json.total_count));
    assert.ok(r.json.items.length <= 100);
    assert.ok(r.headers.get('etag'));
    assert.equal(r.headers.get('x-ratelimit-limit'), '100');
  });
  data[c] = await walk(`/api/v1/${c}`, 7);
  for (const item of data[c]) {
    const g = await req('GET', `/api/v1/${c}/${encodeURIComponent(item.id)}`);
    check(`${c} retrieve`, () => {
      assert.equal(g.status, 200);
      assert.deepEqual(g.json, item);
    });
  }
  const nf = await req('GET', `/api/v1/${c}/does_not_exist`);
  check(`${c} 404`, () => expectErr(nf, 404, 'not_found_error', { code: null, param: null, path: null }));
}
check('resource shapes', () => {
  for (const w of data.workspaces) for (const f of ['id', 'name', 'description']) assert.equal(typeof w[f], 'string');
  assert.ok(data.governance_models.some((g) => g.description === null));
  for (const r of data.records) {
    assert.equal(typeof r.status, 'string');
    assert.equal(typeof r.service_id, 'string');
    assert.ok(r.data && typeof r.data === 'object' && !Array.isArray(r.data));
  }
  assert.ok(data.records.length >= 150);
});
{
  const r = await req('GET', '/api/v1/records');
  check('records default page', () => {
    assert.equal(r.json.items.length, 100);
    assert.equal(r.json.has_more, true);
  });
  const r3 = await req('GET', '/api/v1/records?page=3');
  check('records page 3', () => {
    assert.equal(r3.json.has_more, false);
    assert.equal(r3.json.items.length, r.json.total_count - 200);
  });
  const past = await req('GET', '/api/v1/records?page=99');
  check('page past end', () => {
    assert.equal(past.status, 200);
    assert.deepEqual(past.json.items, []);
    assert.equal(past.json.has_more, false);
  });
  const big = await req('GET', '/api/v1/records?limit=10000');
  check('limit 10000', () => {
    assert.equal(big.status, 200);
    assert.equal(big.json.has_more, false);
  });
  const st = await req('GET', '/api/v1/records?status=approved');
  check('status filter', () => {
    assert.equal(st.status, 200);
    assert.ok(st.json.items.every((x) => x.status === 'approved'));
  });
  const bst = await req('GET', '/api/v1/records?status=bogus');
  check('bad status', () => expectErr(bst, 422, 'invalid_request_error', { param: 'status' }));
}
for (const [q, param] of [
  ['page=0', 'page'],
  ['page=-1', 'page'],
  ['page=1.5', 'page'],
  ['page=abc', 'page'],
  ['page=', 'page'],
  ['page=%2B1', 'page'],
  ['page=1e2', 'page'],
  ['page=0x10', 'page'],
  ['page=99999999999999999999', 'page'],
  ['page=1&page=2', 'page'],
  ['limit=0', 'limit'],
  ['limit=10001', 'limit'],
  ['limit=2.0', 'limit'],
  ['limit=%201', 'limit'],
  ['limit[a]=1', 'limit'],
]) {
  const r = await req('GET', `/api/v1/workspaces?${q}`);
  check(`pagination ${q}`, () => expectErr(r, 422, 'invalid_request_error', { param }));
}
{
  const r = await req('GET', '/api/v1/workspaces?page=01&limit=002');
  check('leading zeros', () => {
    assert.equal(r.status, 200);
    assert.equal(r.json.items.length, 2);
  });
}

// ---------- auth ----------
const noAuth = await req('GET', '/api/v1/workspaces', { key: null });
check('no auth', () => {
  expectErr(noAuth, 401, 'authentication_error');
  assert.equal(noAuth.headers.get('x-ratelimit-limit'), '20');
});
for (const hv of ['Basic abc', 'Bearer', 'Bearer ', `Bearer ${keys.main} extra`, 'Bearer sk_abcdef', `Token ${keys.main}`, keys.main]) {
  const r = await req('GET', '/api/v1/workspaces', { key: null, headers: { authorization: hv } });
  check(`malformed ${hv.slice(0, 20)}`, () => expectErr(r, 401, 'authentication_error'));
}
const flip = (s, i) => s.slice(0, i) + (s[i] === 'a' ? 'b' : 'a') + s.slice(i + 1);
for (const bad of [flip(keys.main, keys.main.length - 1), keys.main.toUpperCase(), keys.main.toLowerCase(), `${keys.main}x`, keys.main.slice(0, -1)]) {
  const r = await req('GET', '/api/v1/workspaces', { key: bad });
  check('unknown key', () => expectErr(r, 401, 'authentication_error', { code: null, param: null }));
}
for (const hv of [`bearer ${keys.main}`, `BEARER   ${keys.main}`]) {
  const r = await req('GET', '/api/v1/workspaces', { key: null, headers: { authorization: hv } });
  check(`scheme case/spaces ${hv.slice(0, 9)}`, () => assert.equal(r.status, 200));
}
const forb = await req('GET', '/api/v1/admin/accounts');
check('forbidden probe', () => expectErr(forb, 403, 'authorization_error'));

// ---------- cross-account ----------
const other = {};
for (const c of collections) other[c] = await walk(`/api/v1/${c}`, 100, keys.other);
for (const c of collections) {
  const mine = new Set(data[c].map((x) => x.id));
  check(`isolation ${c}`, () => assert.ok(other[c].every((x) => !mine.has(x.id))));
  const r = await req('GET', `/api/v1/${c}/${other[c][0].id}`);
  check(`other account ${c} 404`, () => expectErr(r, 404, 'not_found_error'));
}

// ---------- errors: unknown paths, methods, bodies ----------
for (const [m, p] of [
  ['GET', '/api/v1/nope'],
  ['GET', '/api/v2/workspaces'],
  ['GET', '/'],
  ['POST', '/api/v1/unknown/x'],
]) {
  const r = await req(m, p);
  check(`unknown ${m} ${p}`, () => expectErr(r, 404, 'not_found_error'));
}
for (const [m, p] of [
  ['DELETE', '/api/v1/workspaces'],
  ['POST', '/api/v1/records'],
  ['PUT', `/api/v1/records/${data.records[0].id}`],
  ['PATCH', '/api/v1/api_keys'],
]) {
  const r = await req(m, p, { body: {} });
  check(`405 ${m} ${p}`, () => {
    expectErr(r, 405, 'invalid_request_error');
    assert.ok(r.headers.get('allow'));
  });
}
{
  const r = await req('OPTIONS', '/api/v1/workspaces');
  check('OPTIONS', () => {
    assert.equal(r.status, 204);
    assert.equal(r.text, '');
    assert.match(r.headers.get('allow'), /GET/);
  });
  const hd = await req('HEAD', '/api/v1/workspaces');
  check('HEAD', () => {
    assert.equal(hd.status, 200);
    assert.equal(hd.text, '');
  });
  const dec = await req('GET', '/api/v1/records/%E0%A4%A');
  check('bad percent', () => expectErr(dec, 404, 'not_found_error'));
}
const ws = data.workspaces[0].id;
const tax = data.taxonomies[0].id;
for (const raw of ['{bad json', '[1,2]', '"str"', 'null', '']) {
  const r = await req('POST', `/api/v1/submissions?workspace=${ws}`, { raw, headers: { 'content-type': 'application/json' } });
  check(`bad body ${JSON.stringify(raw)}`, () => {
    assert.ok(r.status >= 400 && r.status < 500, String(r.status));
    assert.ok(isEnvelope(r.json), r.text);
  });
}
{
  const r = await req('POST', `/api/v1/submissions?workspace=${ws}`, { raw: 'x=1', headers: { 'content-type': 'text/plain' } });
  check('415', () => expectErr(r, 415, 'invalid_request_error'));
  const big = await req('POST', `/api/v1/submissions?workspace=${ws}`, {
    body: { workspace_id: ws, taxonomy_id: tax, rows: [{ data: { s: 'x'.repeat(2_000_000) } }] },
  });
  check('413', () => expectErr(big, 413, 'invalid_request_error'));
}

// ---------- submissions ----------
const good = { workspace_id: ws, taxonomy_id: tax, rows: [{ data: { a: 1 } }, { data: {} }] };
{
  const r = await req('POST', `/api/v1/submissions?workspace=${ws}`, { body: good });
  check('submission 201', () => {
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.row_count, 2);
    assert.equal(r.json.workspace_id, ws);
  });
  const weird = await req('POST', `/api/v1/submissions?workspace=${ws}`, {
    body: { ...good, rows: [{ data: { ü: '日本語 🎉', n: { d: { e: [1, { f: null }] } }, long: 'y'.repeat(50000) } }] },
  });
  check('weird rows 201', () => assert.equal(weird.status, 201, weird.text));
  const ws2 = data.workspaces[1].id;
  const tax2 = data.taxonomies[1].id;
  await req('POST', `/api/v1/submissions?workspace=${ws2}`, { body: { ...good, workspace_id: ws2, taxonomy_id: tax2 } });
  const all = await req('GET', '/api/v1/submissions');
  const byWs = await req('GET', `/api/v1/submissions?workspace=${ws}`);
  const byTax = await req('GET', `/api/v1/submissions?taxonomy=${tax2}`);
  const both = await req('GET', `/api/v1/submissions?workspace=${ws}&taxonomy=${tax2}`);
  check('submission list/filter', () => {
    assert.equal(all.json.total_count, 3);
    assert.equal(byWs.json.total_count, 2);
    assert.ok(byWs.json.items.every((s) => s.workspace_id === ws));
    assert.equal(byTax.json.total_count, 1);
    assert.equal(both.json.total_count, 0);
  });
  const otherList = await req('GET', '/api/v1/submissions', { key: keys.other });
  check('submission isolation', () => assert.equal(otherList.json.total_count, 0));
  const g = await req('GET', `/api/v1/submissions/${r.json.id}`);
  check('submission retrieve', () => assert.deepEqual(g.json, r.json));
}
const subCases = [
  ['no workspace query', '', good, 400, 'workspace'],
  ['empty workspace query', '?workspace=', good, 400, 'workspace'],
  ['missing workspace_id', `?workspace=${ws}`, { taxonomy_id: tax, rows: [] }, 400, 'workspace_id'],
  ['missing taxonomy_id', `?workspace=${ws}`, { workspace_id: ws, rows: [] }, 400, 'taxonomy_id'],
  ['missing rows', `?workspace=${ws}`, { workspace_id: ws, taxonomy_id: tax }, 400, 'rows'],
  ['rows not array', `?workspace=${ws}`, { ...good, rows: {} }, 422, 'rows'],
  ['row not object', `?workspace=${ws}`, { ...good, rows: [{ data: {} }, 5] }, 422, 'rows', 'rows[1]'],
  ['data not object', `?workspace=${ws}`, { ...good, rows: [{ data: [] }] }, 422, 'rows', 'rows[0].data'],
  ['row without data', `?workspace=${ws}`, { ...good, rows: [{ data: {} }, { x: 1 }] }, 400, 'rows', 'rows[1].data'],
  ['ws id wrong type', `?workspace=${ws}`, { ...good, workspace_id: 5 }, 422, 'workspace_id'],
  ['tax id wrong type', `?workspace=${ws}`, { ...good, taxonomy_id: ['a'] }, 422, 'taxonomy_id'],
  ['mismatch', `?workspace=${data.workspaces[1].id}`, good, 422, 'workspace'],
  ['unknown ws', '?workspace=ws_nope', { ...good, workspace_id: 'ws_nope' }, 404, null],
  ['unknown tax', `?workspace=${ws}`, { ...good, taxonomy_id: 'tax_nope' }, 404, null],
  ['other account ws', `?workspace=${other.workspaces[0].id}`, { ...good, workspace_id: other.workspaces[0].id }, 404, null],
];
for (const [name, qs, body, status, param, p] of subCases) {
  const r = await req('POST', `/api/v1/submissions${qs}`, { body });
  check(`submission ${name}`, () => {
    expectErr(r, status, status === 404 ? 'not_found_error' : 'invalid_request_error', { param });
    if (status === 400) assert.equal(r.json.error.code, 'missing_param');
    if (p) assert.equal(r.json.error.path, p);
  });
}

// ---------- API keys ----------
{
  const c = await req('POST', '/api/v1/api_keys', { body: { name: 'CI key' } });
  check('key create', () => {
    assert.equal(c.status, 201, c.text);
    assert.ok(c.json.secret.startsWith('ak_live_'));
    assert.equal(c.json.name, 'CI key');
    assert.equal(c.json.last_used_at, null);
  });
  const secret = c.json.secret;
  const tail = secret.slice('ak_live_'.length);
  const use1 = await req('GET', '/api/v1/workspaces', { key: secret });
  check('new key works first time', () => assert.equal(use1.status, 200));
  const l1 = await req('GET', '/api/v1/api_keys');
  const entry1 = l1.json.items.find((k) => k.id === c.json.id);
  check('key list', () => {
    assert.equal(l1.status, 200);
    assert.ok(entry1 && entry1.name === 'CI key' && typeof entry1.last_used_at === 'string');
    for (let i = 0; i + 8 <= tail.length; i++) assert.ok(!l1.text.includes(tail.slice(i, i + 8)));
  });
  await new Promise((r) => setTimeout(r, 20));
  await req('GET', '/api/v1/workspaces', { key: secret });
  const l2 = await req('GET', '/api/v1/api_keys');
  check('last_used moves', () => assert.ok(l2.json.items.find((k) => k.id === c.json.id).last_used_at > entry1.last_used_at));
  const otherKeys = await req('GET', '/api/v1/api_keys', { key: keys.other });
  check('key list isolation', () => assert.ok(!otherKeys.json.items.some((k) => k.id === c.json.id)));
  const xdel = await req('DELETE', `/api/v1/api_keys/${c.json.id}`, { key: keys.other });
  check('cross-account delete 404', () => expectErr(xdel, 404, 'not_found_error'));
  const d = await req('DELETE', `/api/v1/api_keys/${c.json.id}`);
  check('delete 204', () => {
    assert.equal(d.status, 204);
    assert.equal(d.text, '');
  });
  const after = await req('GET', '/api/v1/workspaces', { key: secret });
  check('revoked 401', () => expectErr(after, 401, 'authentication_error', { code: null, param: null }));
  const d2 = await req('DELETE', `/api/v1/api_keys/${c.json.id}`);
  check('delete again 404', () => expectErr(d2, 404, 'not_found_error'));
  const l3 = await req('GET', '/api/v1/api_keys');
  check('deleted gone from list', () => assert.ok(!l3.json.items.some((k) => k.id === c.json.id)));
  const nm = await req('POST', '/api/v1/api_keys', { body: {} });
  check('key no name 400', () => expectErr(nm, 400, 'invalid_request_error', { code: 'missing_param', param: 'name' }));
  const nb = await req('POST', '/api/v1/api_keys');
  check('key no body 400', () => expectErr(nb, 400, 'invalid_request_error', { param: 'name' }));
  const bt = await req('POST', '/api/v1/api_keys', { body: { name: 7 } });
  check('key name type 422', () => expectErr(bt, 422, 'invalid_request_error', { param: 'name' }));
}

// ---------- rate limits ----------
{
  const c = await req('POST', '/api/v1/api_keys', { body: { name: 'rate' } });
  const k = c.json.secret;
  const c2 = await req('POST', '/api/v1/api_keys', { body: { name: 'rate2' } });
  // wait for a fresh window boundary not to matter: sequential requests
  let last;
  const rems = [];
  for (let i = 0; i < 101; i++) {
    last = await req('GET', '/api/v1/workspaces', { key: k, noRetry: true });
    rems.push(Number(last.headers.get('x-ratelimit-remaining')));
    if (last.status === 429) break;
  }
  check('rate 429', () => {
    expectErr(last, 429, 'rate_limit_error', { code: 'rate_limit_exceeded', param: null });
    const ra = Number(last.headers.get('retry-after'));
    assert.ok(ra >= 1 && ra <= WINDOW);
    assert.ok(last.json.error.message.includes(String(ra)));
    assert.equal(last.headers.get('x-ratelimit-remaining'), '0');
    const reset = Number(last.headers.get('x-ratelimit-reset'));
    assert.ok(reset >= Date.now() / 1000 - 1 && reset <= Date.now() / 1000 + WINDOW + 1);
    assert.ok(!('path' in last.json.error));
  });
  check('remaining decrements', () => {
    for (let i = 1; i < 10; i++) assert.equal(rems[i], rems[i - 1] - 1);
  });
  const o = await req('GET', '/api/v1/workspaces', { key: c2.json.secret });
  check('other key unaffected', () => {
    assert.equal(o.status, 200);
    assert.equal(o.headers.get('retry-after'), null);
  });
  await new Promise((r) => setTimeout(r, Number(last.headers.get('retry-after')) * 1000 + 50));
  const again = await req('GET', '/api/v1/workspaces', { key: k });
  check('works after Retry-After', () => assert.equal(again.status, 200));
  // per IP (no Authorization)
  let ipLast;
  let n = 0;
  for (let i = 0; i < 25; i++) {
    ipLast = await req('GET', '/api/v1/workspaces', { key: null, noRetry: true });
    n++;
    if (ipLast.status === 429) break;
  }
  check('ip 429', () => {
    expectErr(ipLast, 429, 'rate_limit_error', { code: 'rate_limit_exceeded' });
    assert.ok(ipLast.headers.get('retry-after'));
    assert.equal(ipLast.headers.get('x-ratelimit-limit'), '20');
    assert.ok(n <= 21);
  });
  const withKey = await req('GET', '/api/v1/workspaces');
  check('valid key unaffected by ip limit', () => assert.equal(withKey.status, 200));
}

// ---------- shutdown ----------
const ts = Date.now();
child.kill('SIGTERM');
const code = await new Promise((r) => child.on('exit', (c) => r(c)));
check('SIGTERM exit 0', () => assert.equal(code, 0));
console.log(`(waited on 429 ${waited} times)`);
console.log(`stopped in ${Date.now() - ts} ms; ${checks} checks, ${failures} failures`);
process.exit(failures ? 1 : 0);
