// API v1 — independent server written from the published API document alone.
// Plain JavaScript (ES modules), Node 20 standard library only, in-memory storage.
// Usage: node server.mjs [--host 127.0.0.1] [--port 0] [--window-seconds 60]

import http from 'node:http';
import crypto from 'node:crypto';

// ---------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------

function parseArgs(argv) {
  const out = { host: '127.0.0.1', port: 0, windowSeconds: 60 };
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    let v;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) {
      v = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    const next = () => (v !== undefined ? v : argv[++i]);
    if (a === '--host') out.host = next();
    else if (a === '--port') out.port = Number(next());
    else if (a === '--window-seconds') out.windowSeconds = Number(next());
  }
  if (!Number.isInteger(out.port) || out.port < 0) out.port = 0;
  if (!(out.windowSeconds > 0)) out.windowSeconds = 60;
  return out;
}

const ARGS = parseArgs(process.argv.slice(2));
const WINDOW_MS = Math.round(ARGS.windowSeconds * 1000);

// ---------------------------------------------------------------------------
// Constants (facts the document leaves open, decided here; see README)
// ---------------------------------------------------------------------------

const KEY_PREFIX = 'gvk1.';
const SECRET_LEN = 40;
const KEY_FORMAT = /^gvk1\.[0-9A-Za-z]{40}$/;
const PER_KEY_LIMIT = 100; // document: 100 per minute per API key
const UNAUTH_LIMIT = 20; // document: 20 per minute per IP address
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10000;
const MAX_BODY_BYTES = 1024 * 1024; // request body size limit (document: not shown)
const MAX_ACTIVE_KEYS = 50; // plan limit on active keys per account
const KEY_NAME_MAX = 100;
const RECORD_STATUSES = ['proposed', 'under_review', 'accepted', 'superseded'];

const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(bytes, n) {
  let s = '';
  for (let i = 0; i < n; i++) s += B62[bytes[i % bytes.length] % 62];
  return s;
}

function sha256(s) {
  return crypto.createHash('sha256').update(s).digest();
}

function detId(kind, acct, i) {
  return `${kind}.${base62(sha256(`${kind}|${acct}|${i}`), 10)}`;
}

function newId(kind) {
  return `${kind}.${base62(crypto.randomBytes(16), 10)}`;
}

function newSecret() {
  // rejection sampling for an unbiased base62 secret
  let s = '';
  while (s.length < SECRET_LEN) {
    for (const b of crypto.randomBytes(64)) {
      if (b < 248 && s.length < SECRET_LEN) s += B62[b % 62];
    }
  }
  return KEY_PREFIX + s;
}

function hashKey(k) {
  return crypto.createHash('sha256').update(k).digest('hex');
}

function iso(ms) {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

// deterministic PRNG for seed data
function mulberry32(a) {
  return function () {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------
// Seed data
// ---------------------------------------------------------------------------

const SEED_EPOCH = Date.UTC(2024, 2, 1, 9, 0, 0); // 2024-03-01T09:00:00Z

const accounts = new Map(); // accountId -> account
const keysByHash = new Map(); // sha256 hex -> key record

function makeAccount(id, plan) {
  const acct = {
    id,
    plan,
    workspaces: [],
    models: [],
    records: [],
    taxonomies: [],
    fields: [],
    picklists: [],
    submissions: [],
    keys: [],
  };
  accounts.set(id, acct);
  return acct;
}

function addKey(acct, name, createdAt, lastUsed) {
  const secret = newSecret();
  const key = {
    id: newId('Key'),
    account: acct.id,
    name,
    hash: hashKey(secret),
    createdAt,
    lastUsed,
    revoked: false,
  };
  acct.keys.push(key);
  keysByHash.set(key.hash, key);
  return secret;
}

function seedAccount(acctNo, spec) {
  const acct = makeAccount(`acct_${acctNo}`, spec.plan);
  const rnd = mulberry32(1000 + acctNo);
  const pick = (arr) => arr[Math.floor(rnd() * arr.length)];
  let t = SEED_EPOCH + acctNo * 3600_000;
  const tick = (m = 7) => (t += m * 60_000);

  spec.workspaces.forEach(([name, description], i) => {
    acct.workspaces.push({ id: detId('Wsp', acctNo, i), name, description, created_at: iso(tick()) });
  });
  spec.models.forEach(([name, description], i) => {
    acct.models.push({ id: detId('Gov', acctNo, i), name, description, created_at: iso(tick()) });
  });
  spec.picklists.forEach(([name, values], i) => {
    acct.picklists.push({ id: detId('Pkl', acctNo, i), name, values, created_at: iso(tick()) });
  });
  let fieldNo = 0;
  spec.taxonomies.forEach(([name, description, fields], i) => {
    const tax = { id: detId('Tax', acctNo, i), name, description, created_at: iso(tick()) };
    acct.taxonomies.push(tax);
    for (const [key, type, required, picklistName] of fields) {
      const pl = picklistName ? acct.picklists.find((p) => p.name === picklistName) : null;
      acct.fields.push({
        id: detId('Fld', acctNo, fieldNo++),
        taxonomy_id: tax.id,
        key,
        label: key.replace(/_/g, ' '),
        type,
        required,
        picklist_id: pl ? pl.id : null,
        created_at: iso(tick(1)),
      });
    }
  });
  const words = [
    'access',
    'audit',
    'backup',
    'cipher',
    'consent',
    'data',
    'export',
    'incident',
    'ledger',
    'logging',
    'patch',
    'privacy',
    'retention',
    'review',
    'vendor',
    'vault',
  ];
  for (let i = 0; i < spec.records; i++) {
    const created = tick(3);
    const data = {
      title: `${pick(words)} ${pick(words)} ${i + 1}`,
      score: Math.round(rnd() * 1000) / 10,
      tags: [pick(words), pick(words)],
      owner: { team: pick(['blue', 'green', 'amber', 'violet']), seat: Math.floor(rnd() * 40) },
    };
    if (i % 5 === 0) data.notes = null;
    acct.records.push({
      id: detId('Rec', acctNo, i),
      status: RECORD_STATUSES[Math.floor(rnd() * RECORD_STATUSES.length)],
      service_id: base62(sha256(`svc|${acctNo}|${i}`), 6).toUpperCase(),
      data,
      created_at: iso(created),
      updated_at: iso(created + Math.floor(rnd() * 86_400_000)),
    });
  }
  for (let i = 0; i < spec.submissions; i++) {
    acct.submissions.push({
      id: detId('Sub', acctNo, i),
      workspace_id: acct.workspaces[i % acct.workspaces.length].id,
      taxonomy_id: acct.taxonomies[i % acct.taxonomies.length].id,
      row_count: 1 + ((i * 7) % 13),
      created_at: iso(tick(11)),
    });
  }
  return acct;
}

const A1 = seedAccount(1, {
  plan: { name: 'enterprise', maxRows: 500, rowsLimitCode: 'limit_exceeded', rowsLimitParam: 'rows' },
  workspaces: [
    ['Main', 'Created at sign-up'],
    ['Finance controls', 'Quarterly control testing'],
    ['Vendor risk', 'Third-party assessments'],
    ['Privacy office', 'Records of processing activities'],
    ['Security operations', ''],
    ['Audit 2024', 'External audit preparation'],
    ['zeta sandbox', 'Scratch area for integrations'],
  ],
  models: [
    ['ISO 27001', 'Information security management'],
    ['SOC 2', 'Trust services criteria'],
    ['Internal policy v3', null],
    ['GDPR Article 30', 'Records of processing'],
    ['NIST CSF', null],
  ],
  picklists: [
    ['Risk level', ['low', 'medium', 'high', 'critical']],
    ['Asset class', ['hardware', 'software', 'data', 'people']],
    ['Region', ['emea', 'amer', 'apac']],
    ['Review outcome', ['pass', 'fail', 'n/a']],
  ],
  taxonomies: [
    [
      'Risk Register',
      'Risks and their treatment',
      [
        ['title', 'string', true],
        ['risk_level', 'picklist', false, 'Risk level'],
        ['owner', 'string', false],
        ['likelihood', 'number', false],
        ['accepted', 'boolean', false],
      ],
    ],
    [
      'Asset Inventory',
      'Assets in scope',
      [
        ['asset_tag', 'string', true],
        ['title', 'string', true],
        ['asset_class', 'picklist', true, 'Asset class'],
        ['region', 'picklist', false, 'Region'],
      ],
    ],
    [
      'Control Tests',
      'Results of periodic control tests',
      [
        ['control', 'string', true],
        ['outcome', 'picklist', true, 'Review outcome'],
        ['tested_on', 'string', false],
      ],
    ],
  ],
  records: 237,
  submissions: 4,
});

const A2 = seedAccount(2, {
  plan: { name: 'starter', maxRows: 50, rowsLimitCode: 'feature_required', rowsLimitParam: 'bulk_submissions' },
  workspaces: [
    ['Main', 'Created at sign-up'],
    ['Pilot', 'Pilot programme'],
    ['Archive', ''],
  ],
  models: [
    ['Starter baseline', null],
    ['PCI DSS', 'Card data security'],
  ],
  picklists: [['Severity', ['minor', 'major']]],
  taxonomies: [
    [
      'Issues',
      'Open issues',
      [
        ['summary', 'string', true],
        ['severity', 'picklist', false, 'Severity'],
      ],
    ],
    ['Notes', 'Free notes', [['text', 'string', true]]],
  ],
  records: 14,
  submissions: 2,
});

const MAIN_KEY = addKey(A1, 'Primary integration', Date.now(), null);
addKey(A1, 'Legacy export job', SEED_EPOCH + 86_400_000, Math.floor((SEED_EPOCH + 90 * 86_400_000) / 1000));
const OTHER_KEY = addKey(A2, 'Account two integration', Date.now(), null);

// ---------------------------------------------------------------------------
// Rate limiting: sliding-window log per bucket
// ---------------------------------------------------------------------------

const buckets = new Map(); // bucket id -> array of request times (ms), ascending

function rateHit(bucketId, limit) {
  const now = Date.now();
  let log = buckets.get(bucketId);
  if (!log) {
    log = [];
    buckets.set(bucketId, log);
  }
  while (log.length && log[0] <= now - WINDOW_MS) log.shift();
  if (log.length >= limit) {
    const freeAt = log[0] + WINDOW_MS;
    return {
      limited: true,
      limit,
      remaining: 0,
      reset: Math.ceil(freeAt / 1000),
      retryAfter: Math.max(1, Math.ceil((freeAt - now) / 1000)),
    };
  }
  log.push(now);
  return { limited: false, limit, remaining: limit - log.length, reset: Math.ceil((log[0] + WINDOW_MS) / 1000) };
}

setInterval(
  () => {
    const now = Date.now();
    for (const [id, log] of buckets) {
      while (log.length && log[0] <= now - WINDOW_MS) log.shift();
      if (!log.length) buckets.delete(id);
    }
  },
  Math.max(WINDOW_MS, 5000),
).unref();

// ---------------------------------------------------------------------------
// Responses and errors
// ---------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, type, code, message, param = null, path = null) {
    super(message);
    Object.assign(this, { status, type, code, param, path });
  }
}

const invalid = (message, param, code = 'invalid_value', path = null) => new ApiError(422, 'invalid_request_error', code, message, param, path);
const missing = (param, path = null) => new ApiError(400, 'invalid_request_error', 'missing_param', `Missing required parameter: ${param}.`, param, path);
const notFound = (message = 'No such resource.') => new ApiError(404, 'not_found_error', null, message, null, null);

function send(res, status, body, headers = {}) {
  const text = JSON.stringify(body, null, 2) + '\n';
  res.statusCode = status;
  res.setHeader('content-type', 'application/json;charset=UTF-8');
  res.setHeader('cache-control', 'no-store');
  res.setHeader('connection', 'close');
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.setHeader('content-length', Buffer.byteLength(text));
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

function sendError(res, err) {
  const error = { type: err.type, code: err.code, message: err.message, param: err.param, path: err.path };
  send(res, err.status, { error });
}

// ---------------------------------------------------------------------------
// Helpers: query parameters, pagination, bodies
// ---------------------------------------------------------------------------

function single(query, name) {
  const all = query.getAll(name);
  if (all.length === 0) return undefined;
  if (all.length > 1) throw invalid(`Parameter ${name} was given more than once.`, name, 'duplicate_param');
  return all[0];
}

function intParam(query, name, def, min, max) {
  const raw = single(query, name);
  if (raw === undefined) return def;
  const rule = max === Number.MAX_SAFE_INTEGER ? 'a positive integer' : `an integer between ${min} and ${max}`;
  if (!/^[0-9]+$/.test(raw)) throw invalid(`${name} must be ${rule}.`, name);
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw invalid(`${name} must be ${rule}.`, name, 'out_of_range');
  return n;
}

function paginate(res, query, all, project) {
  const page = intParam(query, 'page', 1, 1, Number.MAX_SAFE_INTEGER);
  const limit = intParam(query, 'limit', DEFAULT_LIMIT, 1, MAX_LIMIT);
  const total = all.length;
  const pages = Math.ceil(total / limit);
  if (page > Math.max(1, pages)) {
    throw invalid(`page ${page} is past the last page (${Math.max(1, pages)}).`, 'page', 'page_out_of_range');
  }
  const start = (page - 1) * limit;
  const items = all.slice(start, start + limit).map(project);
  send(res, 200, { items, has_more: start + limit < total, total_count: total, page, limit });
}

function filterValue(query, name) {
  const v = single(query, name);
  if (v === undefined) return undefined;
  if (v === '') throw invalid(`${name} must not be empty.`, name);
  return v;
}

function checkContentType(req) {
  const ct = req.headers['content-type'];
  if (ct === undefined) return;
  const media = ct.split(';')[0].trim().toLowerCase();
  if (media !== 'application/json') {
    throw invalid('Request bodies must be sent as Content-Type: application/json.', null, 'unsupported_media_type');
  }
}

function jsonBody(req, body) {
  if (body.tooLarge) {
    throw invalid(`Request body exceeds ${MAX_BODY_BYTES} bytes.`, null, 'body_too_large');
  }
  checkContentType(req);
  const text = body.buf.toString('utf8');
  if (text.trim() === '') return {};
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid('Request body is not valid JSON.', null, 'invalid_json');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalid('Request body must be a JSON object.', null, 'invalid_body', '');
  }
  return parsed;
}

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// ---------------------------------------------------------------------------
// Projections (public shapes)
// ---------------------------------------------------------------------------

const pWorkspace = (w) => ({ id: w.id, name: w.name, description: w.description, created_at: w.created_at });
const pModel = (m) => ({ id: m.id, name: m.name, description: m.description, created_at: m.created_at });
const pRecord = (r) => ({
  id: r.id,
  status: r.status,
  service_id: r.service_id,
  data: r.data,
  created_at: r.created_at,
  updated_at: r.updated_at,
});
const pTaxonomy = (acct) => (t) => ({
  id: t.id,
  name: t.name,
  description: t.description,
  field_ids: acct.fields.filter((f) => f.taxonomy_id === t.id).map((f) => f.id),
  created_at: t.created_at,
});
const pField = (f) => ({ ...f });
const pPicklist = (p) => ({ id: p.id, name: p.name, values: [...p.values], created_at: p.created_at });
const pSubmission = (s) => ({ ...s });
const pKey = (k) => ({ key_id: k.id, label: k.name, last_used: k.lastUsed, created_at: iso(k.createdAt) });

// orderings
const byName = (a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || (a.id < b.id ? -1 : 1);
// stable sorts over insertion order: ties in created_at keep creation order
const createdAsc = (list) => [...list].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
const createdDesc = (list) => createdAsc(list).reverse();

// ---------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------

function retrieve(res, list, id, wrapper, project) {
  const found = list.find((x) => x.id === id);
  if (!found) throw notFound();
  send(res, 200, { [wrapper]: project(found) });
}

function listRecords(res, acct, query) {
  let rows = acct.records;
  const status = filterValue(query, 'status');
  if (status !== undefined) {
    const wanted = status.split(',');
    for (const s of wanted) {
      if (!RECORD_STATUSES.includes(s)) {
        throw invalid(`status must be one of ${RECORD_STATUSES.join(', ')}.`, 'status', 'invalid_choice');
      }
    }
    rows = rows.filter((r) => wanted.includes(r.status));
  }
  const svc = filterValue(query, 'service_id');
  if (svc !== undefined) rows = rows.filter((r) => r.service_id === svc);
  paginate(res, query, createdDesc(rows), pRecord);
}

function listFields(res, acct, query) {
  let rows = acct.fields;
  const tax = filterValue(query, 'taxonomy');
  if (tax !== undefined) rows = rows.filter((f) => f.taxonomy_id === tax);
  paginate(res, query, rows, pField);
}

function listSubmissions(res, acct, query) {
  let rows = acct.submissions;
  const ws = filterValue(query, 'workspace');
  const tax = filterValue(query, 'taxonomy');
  if (ws !== undefined) rows = rows.filter((s) => s.workspace_id === ws);
  if (tax !== undefined) rows = rows.filter((s) => s.taxonomy_id === tax);
  paginate(res, query, createdAsc(rows), pSubmission);
}

function validateData(acct, taxonomy, data, at) {
  const fields = acct.fields.filter((f) => f.taxonomy_id === taxonomy.id);
  for (const k of Object.keys(data)) {
    if (!fields.some((f) => f.key === k)) {
      throw invalid(`Unknown field "${k}" for taxonomy ${taxonomy.id}.`, 'rows', 'unknown_field', `${at}/${k}`);
    }
  }
  for (const f of fields) {
    const v = data[f.key];
    const p = `${at}/${f.key}`;
    if (v === undefined || v === null) {
      if (f.required) throw invalid(`Field "${f.key}" is required.`, 'rows', 'required_field', p);
      continue;
    }
    if (f.type === 'string' && typeof v !== 'string') throw invalid(`Field "${f.key}" must be a string.`, 'rows', 'invalid_type', p);
    if (f.type === 'number' && (typeof v !== 'number' || !Number.isFinite(v))) throw invalid(`Field "${f.key}" must be a number.`, 'rows', 'invalid_type', p);
    if (f.type === 'boolean' && typeof v !== 'boolean') throw invalid(`Field "${f.key}" must be a boolean.`, 'rows', 'invalid_type', p);
    if (f.type === 'picklist') {
      const pl = acct.picklists.find((x) => x.id === f.picklist_id);
      if (typeof v !== 'string' || !pl.values.includes(v)) {
        throw invalid(`Field "${f.key}" must be one of ${pl.values.join(', ')}.`, 'rows', 'invalid_choice', p);
      }
    }
  }
}

function createSubmission(req, res, acct, query, body) {
  const wsParam = single(query, 'workspace');
  if (wsParam === undefined) throw missing('workspace');
  const b = jsonBody(req, body);
  if (!('taxonomy_id' in b)) throw missing('taxonomy_id', '/taxonomy_id');
  if (!('rows' in b)) throw missing('rows', '/rows');
  if (wsParam === '') throw invalid('workspace must not be empty.', 'workspace');
  if ('workspace_id' in b) {
    if (typeof b.workspace_id !== 'string') throw invalid('workspace_id must be a string.', 'workspace_id', 'invalid_type', '/workspace_id');
    if (b.workspace_id !== wsParam) {
      throw invalid('workspace_id in the body differs from the workspace query parameter.', 'workspace_id', 'workspace_mismatch', '/workspace_id');
    }
  }
  if (typeof b.taxonomy_id !== 'string' || b.taxonomy_id === '') {
    throw invalid('taxonomy_id must be a non-empty string.', 'taxonomy_id', 'invalid_type', '/taxonomy_id');
  }
  if (!Array.isArray(b.rows)) throw invalid('rows must be an array.', 'rows', 'invalid_type', '/rows');
  const ws = acct.workspaces.find((w) => w.id === wsParam);
  if (!ws) throw invalid(`Unknown workspace ${wsParam}.`, 'workspace', 'unknown_workspace');
  const tax = acct.taxonomies.find((t) => t.id === b.taxonomy_id);
  if (!tax) throw invalid(`Unknown taxonomy ${b.taxonomy_id}.`, 'taxonomy_id', 'unknown_taxonomy', '/taxonomy_id');
  if (b.rows.length === 0) throw invalid('rows must contain at least one row.', 'rows', 'rows_empty', '/rows');
  if (b.rows.length > acct.plan.maxRows) {
    throw new ApiError(
      422,
      'plan_limit_exceeded',
      acct.plan.rowsLimitCode,
      `The ${acct.plan.name} plan accepts at most ${acct.plan.maxRows} rows per submission.`,
      acct.plan.rowsLimitParam,
      '/rows',
    );
  }
  b.rows.forEach((row, i) => {
    const at = `/rows/${i}`;
    if (!isPlainObject(row)) throw invalid('Each row must be an object with one member "data".', 'rows', 'invalid_type', at);
    for (const k of Object.keys(row)) {
      if (k !== 'data') throw invalid(`Unexpected member "${k}" in row.`, 'rows', 'unexpected_member', `${at}/${k}`);
    }
    if (!('data' in row)) throw invalid('Row is missing its "data" member.', 'rows', 'missing_member', `${at}/data`);
    if (!isPlainObject(row.data)) throw invalid('Row data must be an object.', 'rows', 'invalid_type', `${at}/data`);
    validateData(acct, tax, row.data, `${at}/data`);
  });
  const sub = {
    id: newId('Sub'),
    workspace_id: ws.id,
    taxonomy_id: tax.id,
    row_count: b.rows.length,
    created_at: iso(Date.now()),
  };
  acct.submissions.push(sub);
  send(res, 201, { submission: pSubmission(sub) });
}

function createKey(req, res, acct, body) {
  const b = jsonBody(req, body);
  if (!('name' in b)) throw missing('name', '/name');
  if (typeof b.name !== 'string') throw invalid('name must be a string.', 'name', 'invalid_type', '/name');
  if (b.name.trim() === '') throw invalid('name must not be blank.', 'name', 'invalid_value', '/name');
  if (b.name.length > KEY_NAME_MAX) throw invalid(`name must be at most ${KEY_NAME_MAX} characters.`, 'name', 'too_long', '/name');
  if (acct.keys.length >= MAX_ACTIVE_KEYS) {
    throw new ApiError(422, 'plan_limit_exceeded', 'limit_exceeded', `At most ${MAX_ACTIVE_KEYS} active API keys per account.`, 'api_keys', null);
  }
  const secret = addKey(acct, b.name, Date.now(), null);
  const key = acct.keys[acct.keys.length - 1];
  send(res, 200, { ...pKey(key), token: secret });
}

function deleteKey(res, acct, id) {
  const idx = acct.keys.findIndex((k) => k.id === id);
  if (idx < 0) throw notFound('No such API key.');
  const [key] = acct.keys.splice(idx, 1);
  key.revoked = true; // hash stays known so later use is reported as revoked
  send(res, 200, { key_id: key.id, deleted: true });
}

// route table: [method, regex, handler(ctx, match)]
const ROUTES = [
  ['GET', /^\/api\/v1\/workspaces$/, (c) => paginate(c.res, c.query, [...c.acct.workspaces].sort(byName), pWorkspace)],
  ['GET', /^\/api\/v1\/workspace\/([^/]+)$/, (c, id) => retrieve(c.res, c.acct.workspaces, id, 'workspace', pWorkspace)],
  ['GET', /^\/api\/v1\/governance_models$/, (c) => paginate(c.res, c.query, createdAsc(c.acct.models), pModel)],
  ['GET', /^\/api\/v1\/governance_model\/([^/]+)$/, (c, id) => retrieve(c.res, c.acct.models, id, 'governance_model', pModel)],
  ['GET', /^\/api\/v1\/records$/, (c) => listRecords(c.res, c.acct, c.query)],
  ['GET', /^\/api\/v1\/record\/([^/]+)$/, (c, id) => retrieve(c.res, c.acct.records, id, 'record', pRecord)],
  ['GET', /^\/api\/v1\/taxonomies$/, (c) => paginate(c.res, c.query, [...c.acct.taxonomies].sort(byName), pTaxonomy(c.acct))],
  ['GET', /^\/api\/v1\/taxonomy\/([^/]+)$/, (c, id) => retrieve(c.res, c.acct.taxonomies, id, 'taxonomy', pTaxonomy(c.acct))],
  ['GET', /^\/api\/v1\/taxonomy_fields$/, (c) => listFields(c.res, c.acct, c.query)],
  ['GET', /^\/api\/v1\/taxonomy_field\/([^/]+)$/, (c, id) => retrieve(c.res, c.acct.fields, id, 'field', pField)],
  ['GET', /^\/api\/v1\/picklists$/, (c) => paginate(c.res, c.query, [...c.acct.picklists].sort(byName), pPicklist)],
  ['GET', /^\/api\/v1\/picklist\/([^/]+)$/, (c, id) => retrieve(c.res, c.acct.picklists, id, 'picklist', pPicklist)],
  ['POST', /^\/api\/v1\/submissions$/, (c) => createSubmission(c.req, c.res, c.acct, c.query, c.body)],
  ['GET', /^\/api\/v1\/submission_batches$/, (c) => listSubmissions(c.res, c.acct, c.query)],
  ['POST', /^\/api\/v1\/api_keys$/, (c) => createKey(c.req, c.res, c.acct, c.body)],
  ['GET', /^\/api\/v1\/api_keys$/, (c) => paginate(c.res, c.query, [...c.acct.keys].sort((a, b) => a.createdAt - b.createdAt).reverse(), pKey)],
  ['DELETE', /^\/api\/v1\/api_key\/([^/]+)$/, (c, id) => deleteKey(c.res, c.acct, id)],
];

// ---------------------------------------------------------------------------
// Authentication
// ---------------------------------------------------------------------------

// Returns { key } on success, or { headerProblem: message } / { error: ApiError }.
function authenticate(req) {
  const h = req.headers.authorization;
  if (h === undefined) return { headerProblem: 'The Authorization header is missing.' };
  const m = /^bearer +(\S+) *$/i.exec(h);
  if (!m) return { headerProblem: 'The Authorization header must use the Bearer scheme: "Bearer <API_KEY>".' };
  const token = m[1];
  if (!KEY_FORMAT.test(token)) {
    return { error: new ApiError(401, 'authentication_error', null, 'The API key is incorrectly formatted.') };
  }
  const key = keysByHash.get(hashKey(token));
  if (!key) return { error: new ApiError(401, 'authentication_error', null, 'The API key is not valid.') };
  if (key.revoked) return { error: new ApiError(401, 'authentication_error', 'key_revoked', 'The API key has been revoked.') };
  return { key };
}

// ---------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        tooLarge = true;
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve({ buf: Buffer.concat(chunks), tooLarge }));
    req.on('error', () => resolve({ buf: Buffer.alloc(0), tooLarge: false }));
  });
}

async function handle(req, res) {
  const body = await readBody(req);
  const url = new URL(req.url, 'http://localhost');
  let pathname = url.pathname;
  if (pathname.length > 1 && pathname.endsWith('/')) pathname = pathname.slice(0, -1);

  const auth = authenticate(req);
  const rl = auth.key ? rateHit(`key:${auth.key.id}`, PER_KEY_LIMIT) : rateHit(`ip:${req.socket.remoteAddress}`, UNAUTH_LIMIT);
  res.setHeader('x-ratelimit-limit', String(rl.limit));
  res.setHeader('x-ratelimit-remaining', String(rl.remaining));
  res.setHeader('x-ratelimit-reset', String(rl.reset));
  if (rl.limited) {
    return send(
      res,
      429,
      {
        error: {
          type: 'rate_limit_error',
          code: 'rate_limit_exceeded',
          message: `Rate limit exceeded. Retry in ${rl.retryAfter} seconds.`,
          param: null,
        },
      },
      { 'retry-after': String(rl.retryAfter) },
    );
  }
  if (auth.headerProblem) {
    return send(res, 401, { error: 'authentication_error', error_description: auth.headerProblem }, { 'www-authenticate': 'Bearer realm="api-v1"' });
  }
  if (auth.error) {
    res.setHeader('www-authenticate', 'Bearer realm="api-v1", error="invalid_token"');
    return sendError(res, auth.error);
  }
  const key = auth.key;
  key.lastUsed = Math.floor(Date.now() / 1000);
  const acct = accounts.get(key.account);

  if (/^\/api\/v1\/admin(\/|$)/.test(pathname)) {
    throw new ApiError(403, 'authorization_error', 'admin_only', 'API keys cannot reach admin-only endpoints.');
  }
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  for (const [m, re, fn] of ROUTES) {
    const match = re.exec(pathname);
    if (!match || m !== method) continue;
    let id;
    if (match[1] !== undefined) {
      try {
        id = decodeURIComponent(match[1]);
      } catch {
        throw notFound();
      }
    }
    return fn({ req, res, acct, query: url.searchParams, body }, id);
  }
  throw notFound('No such endpoint.');
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((err) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (err instanceof ApiError) return sendError(res, err);
    sendError(res, new ApiError(500, 'api_error', null, 'Unexpected server error.'));
  });
});
server.keepAliveTimeout = 1000;
server.on('clientError', (err, socket) => {
  if (socket.writable) {
    const text = JSON.stringify({ error: { type: 'invalid_request_error', code: 'bad_http', message: 'Malformed HTTP request.', param: null, path: null } });
    socket.end(
      `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json;charset=UTF-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
    );
  } else socket.destroy();
});

const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

server.listen(ARGS.port, ARGS.host, () => {
  const { port } = server.address();
  const host = ARGS.host.includes(':') ? `[${ARGS.host}]` : ARGS.host;
  process.stdout.write(
    `{"url": ${JSON.stringify(`http://${host}:${port}`)}, "keys": {"main": ${JSON.stringify(MAIN_KEY)}, "other": ${JSON.stringify(OTHER_KEY)}}}\n`,
  );
});
