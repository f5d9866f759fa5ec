// Public REST API v1 — Express implementation (in-memory).
//
//   node variants/blind-express/server.mjs [--host 127.0.0.1] [--port 0] [--window-seconds 60]
//
// Prints exactly one JSON line on stdout once listening:
//   {"url": "http://127.0.0.1:PORT", "keys": {"main": "<key>", "other": "<key>"}}

import { createRequire } from 'node:module';
import crypto from 'node:crypto';
import process from 'node:process';

const require = createRequire(import.meta.url);

// Debian installs express and its dependencies flat under /usr/share/nodejs,
// which Debian's own node searches by default but an upstream node does not.
// If express is not resolvable normally, add the system module directories to
// the global search path so that express *and its dependencies* resolve.
const SYSTEM_MODULE_DIRS = ['/usr/share/nodejs', '/usr/lib/nodejs', '/usr/lib/node_modules'];
function loadExpress() {
  try {
    return require(require.resolve('express'));
  } catch (err) {
    if (err.code !== 'MODULE_NOT_FOUND') throw err;
  }
  const Module = require('node:module');
  const delimiter = process.platform === 'win32' ? ';' : ':';
  const current = (process.env.NODE_PATH || '').split(delimiter).filter(Boolean);
  process.env.NODE_PATH = [...current, ...SYSTEM_MODULE_DIRS.filter((d) => !current.includes(d))].join(delimiter);
  Module._initPaths();
  return require(require.resolve('express', { paths: SYSTEM_MODULE_DIRS }));
}
const express = loadExpress();

// ---------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------

const KEY_PREFIX = 'ak_live_';
const SECRET_LENGTH = 40;
const PER_KEY_LIMIT = 100;
const PER_IP_LIMIT = 20;
const MAX_ROWS_PER_SUBMISSION = 5000;
const BODY_LIMIT = '1mb';
const PAGE_DEFAULT = 1;
const LIMIT_DEFAULT = 100;
const LIMIT_MAX = 10000;
const RECORD_STATUSES = ['draft', 'in_review', 'approved', 'rejected', 'archived'];

function parseArgs(argv) {
  const opts = { host: '127.0.0.1', port: 0, windowSeconds: 60 };
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    let value;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq !== -1) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    const next = () => {
      if (value !== undefined) return value;
      if (i + 1 >= argv.length) fail(`missing value for ${arg}`);
      return argv[++i];
    };
    switch (arg) {
      case '--host':
        opts.host = next();
        break;
      case '--port':
        opts.port = toInt(next(), arg, 0, 65535);
        break;
      case '--window-seconds':
        opts.windowSeconds = toInt(next(), arg, 1, 86400);
        break;
      case '-h':
      case '--help':
        process.stderr.write('usage: server.mjs [--host 127.0.0.1] [--port 0] [--window-seconds 60]\n');
        process.exit(0);
        break;
      default:
        fail(`unknown argument: ${arg}`);
    }
  }
  return opts;

  function toInt(v, name, min, max) {
    if (!/^\d+$/.test(v)) fail(`${name} expects an integer, got ${JSON.stringify(v)}`);
    const n = Number(v);
    if (n < min || n > max) fail(`${name} must be between ${min} and ${max}`);
    return n;
  }
  function fail(msg) {
    process.stderr.write(`server.mjs: ${msg}\n`);
    process.exit(2);
  }
}

const options = parseArgs(process.argv.slice(2));
const WINDOW_MS = options.windowSeconds * 1000;

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, type, message, { code = null, param = null, path = null, headers = null } = {}) {
    super(message);
    this.status = status;
    this.type = type;
    this.code = code;
    this.param = param;
    this.path = path;
    this.headers = headers;
  }
  toBody() {
    return { error: { type: this.type, code: this.code, message: this.message, param: this.param, path: this.path } };
  }
}

const invalid = (message, param, extra = {}) =>
  new ApiError(422, 'invalid_request_error', message, { code: extra.code ?? 'invalid_value', param, path: extra.path ?? null });
const missing = (param, extra = {}) =>
  new ApiError(400, 'invalid_request_error', extra.message ?? `Missing required parameter: ${param}.`, {
    code: 'missing_param',
    param,
    path: extra.path ?? null,
  });
const notFound = (message) => new ApiError(404, 'not_found_error', message);
const unauthenticated = (message) =>
  new ApiError(401, 'authentication_error', message, {
    headers: { 'WWW-Authenticate': 'Bearer realm="api"' },
  });

function sendError(res, err) {
  if (err.headers) res.set(err.headers);
  res.status(err.status).json(err.toBody());
}

// ---------------------------------------------------------------------------
// Identifiers and helpers
// ---------------------------------------------------------------------------

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function randomString(length, alphabet = BASE62) {
  let out = '';
  while (out.length < length) {
    const bytes = crypto.randomBytes(length * 2);
    for (const b of bytes) {
      // reject values that would bias the distribution
      if (b < Math.floor(256 / alphabet.length) * alphabet.length) out += alphabet[b % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}
const newId = (prefix) => `${prefix}_${randomString(16, '0123456789abcdefghijklmnopqrstuvwxyz')}`;
const hashKey = (token) => crypto.createHash('sha256').update(token, 'utf8').digest('hex');
const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (obj, key) => Object.prototype.hasOwnProperty.call(obj, key);

// ---------------------------------------------------------------------------
// In-memory store
// ---------------------------------------------------------------------------

const accounts = new Map(); // accountId -> account data
const keysByHash = new Map(); // sha256(token) -> key record (live keys only)

function createAccount(name) {
  const account = {
    id: newId('acct'),
    name,
    workspaces: [],
    governanceModels: [],
    records: [],
    taxonomies: [],
    fields: [],
    picklists: [],
    submissions: [],
    apiKeys: [], // live (non-revoked) keys, in creation order
  };
  accounts.set(account.id, account);
  return account;
}

function issueKey(account, name) {
  const secret = `${KEY_PREFIX}${randomString(SECRET_LENGTH)}`;
  const record = {
    id: newId('key'),
    accountId: account.id,
    name,
    hint: secret.slice(-4),
    createdAt: new Date().toISOString(),
    lastUsedAt: null,
    hash: hashKey(secret),
  };
  account.apiKeys.push(record);
  keysByHash.set(record.hash, record);
  return { record, secret };
}

function revokeKey(account, record) {
  keysByHash.delete(record.hash);
  const i = account.apiKeys.indexOf(record);
  if (i !== -1) account.apiKeys.splice(i, 1);
}

// --- serialisers (list items and retrievals share them) ---
const views = {
  workspace: (w) => ({ id: w.id, name: w.name, description: w.description }),
  governanceModel: (g) => ({ id: g.id, name: g.name, description: g.description }),
  record: (r) => ({ id: r.id, status: r.status, service_id: r.serviceId, data: r.data }),
  taxonomy: (t) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    version: t.version,
    field_count: t.fieldCount,
  }),
  field: (f) => ({
    id: f.id,
    taxonomy_id: f.taxonomyId,
    name: f.name,
    label: f.label,
    type: f.type,
    required: f.required,
    picklist_id: f.picklistId,
  }),
  picklist: (p) => ({ id: p.id, name: p.name, options: p.options.map((o) => ({ ...o })) }),
  submission: (s) => ({
    id: s.id,
    workspace_id: s.workspaceId,
    taxonomy_id: s.taxonomyId,
    row_count: s.rows.length,
    created_at: s.createdAt,
  }),
  apiKey: (k) => ({
    id: k.id,
    name: k.name,
    hint: `…${k.hint}`,
    created_at: k.createdAt,
    last_used_at: k.lastUsedAt,
  }),
};

// ---------------------------------------------------------------------------
// Seed data
// ---------------------------------------------------------------------------

function seed() {
  const pick = (arr, i) => arr[i % arr.length];
  let serviceCounter = 1000;
  const serviceId = () => `SV-${(serviceCounter++).toString(36).toUpperCase()}${randomString(2, 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789')}`;

  function addTaxonomy(account, name, description, fieldSpecs) {
    const t = { id: newId('tax'), name, description, version: 1, fieldCount: 0 };
    account.taxonomies.push(t);
    for (const spec of fieldSpecs) {
      let picklistId = null;
      if (spec.options) {
        const p = {
          id: newId('pkl'),
          name: spec.picklistName,
          options: spec.options.map((o) => ({ value: o.toLowerCase().replace(/[^a-z0-9]+/g, '_'), label: o })),
        };
        account.picklists.push(p);
        picklistId = p.id;
      }
      account.fields.push({
        id: newId('fld'),
        taxonomyId: t.id,
        name: spec.name,
        label: spec.label,
        type: spec.options ? 'picklist' : spec.type,
        required: !!spec.required,
        picklistId,
      });
      t.fieldCount++;
    }
    return t;
  }

  function addRecords(account, count, makeData) {
    for (let i = 0; i < count; i++) {
      account.records.push({ id: newId('rec'), status: pick(RECORD_STATUSES, i * 7 + (i >> 2)), serviceId: serviceId(), data: makeData(i) });
    }
  }

  // ---- Account 1 ----
  const a1 = createAccount('Northwind Compliance');
  for (const [name, description] of [
    ['Main', 'Default workspace created at sign-up.'],
    ['Supplier Onboarding', 'Supplier questionnaires and due-diligence batches.'],
    ['Clinical Data EU', 'Study site submissions for the EU region.'],
    ['Archive 2023', "Read-mostly archive of last year's batches."],
  ])
    a1.workspaces.push({ id: newId('ws'), name, description });
  for (const [name, description] of [
    ['GDPR Baseline', 'Data-protection controls aligned with GDPR articles 5-32.'],
    ['ISO 27001 Annex A', 'Information-security control set.'],
    ['Internal Draft Model', null],
    ['SOX IT General Controls', 'Financial-reporting IT controls.'],
    ['Vendor Risk Tiering', 'Three-tier vendor criticality model.'],
  ])
    a1.governanceModels.push({ id: newId('gm'), name, description });
  addTaxonomy(a1, 'Supplier Profile', 'Core attributes captured for each supplier.', [
    { name: 'legal_name', label: 'Legal name', type: 'text', required: true },
    { name: 'country', label: 'Country', picklistName: 'Countries', options: ['Germany', 'France', 'Netherlands', 'Spain', 'Poland'], required: true },
    { name: 'annual_spend', label: 'Annual spend (EUR)', type: 'number' },
    { name: 'risk_tier', label: 'Risk tier', picklistName: 'Risk tiers', options: ['Low', 'Medium', 'High'] },
    { name: 'onboarded_on', label: 'Onboarded on', type: 'date' },
  ]);
  addTaxonomy(a1, 'Clinical Site Visit', 'Monitoring visit report for a study site.', [
    { name: 'site_code', label: 'Site code', type: 'text', required: true },
    { name: 'visit_date', label: 'Visit date', type: 'date', required: true },
    { name: 'outcome', label: 'Outcome', picklistName: 'Visit outcomes', options: ['Satisfactory', 'Follow-up required', 'Escalated'] },
    { name: 'notes', label: 'Notes', type: 'text' },
  ]);
  addTaxonomy(a1, 'Asset Inventory', 'IT assets in scope for audits.', [
    { name: 'asset_tag', label: 'Asset tag', type: 'text', required: true },
    { name: 'owner_email', label: 'Owner e-mail', type: 'text' },
  ]);
  const countries = ['DE', 'FR', 'NL', 'ES', 'PL', 'IT'];
  addRecords(a1, 237, (i) => ({
    supplier: `Supplier ${String(i + 1).padStart(3, '0')}`,
    country: pick(countries, i),
    annual_spend: 1000 * (((i * 37) % 500) + 1),
    tags: i % 3 === 0 ? ['critical'] : [],
    contact: { email: `ops${i + 1}@supplier${(i % 40) + 1}.example` },
  }));

  // ---- Account 2 ----
  const a2 = createAccount('Contoso Labs');
  for (const [name, description] of [
    ['Main', 'Default workspace created at sign-up.'],
    ['R&D Pilots', 'Pilot programme submissions.'],
  ])
    a2.workspaces.push({ id: newId('ws'), name, description });
  for (const [name, description] of [
    ['Lab Safety Model', 'Laboratory safety governance.'],
    ['Unreviewed Model', null],
  ])
    a2.governanceModels.push({ id: newId('gm'), name, description });
  addTaxonomy(a2, 'Experiment Log', 'One row per experiment run.', [
    { name: 'experiment_id', label: 'Experiment', type: 'text', required: true },
    { name: 'result', label: 'Result', picklistName: 'Results', options: ['Pass', 'Fail', 'Inconclusive'] },
  ]);
  addRecords(a2, 24, (i) => ({ experiment: `EXP-${2000 + i}`, result: pick(['pass', 'fail'], i), temperature_c: 20 + (i % 5) }));

  const main = issueKey(a1, 'Seed key (main)');
  const other = issueKey(a2, 'Seed key (other)');
  return { main: main.secret, other: other.secret };
}

const seedKeys = seed();

// ---------------------------------------------------------------------------
// Rate limiting (fixed window per bucket)
// ---------------------------------------------------------------------------

const buckets = new Map(); // bucketKey -> { start, count }

function takeToken(bucketKey, limit) {
  const now = Date.now();
  let b = buckets.get(bucketKey);
  if (!b || now >= b.start + WINDOW_MS) {
    b = { start: now, count: 0 };
    buckets.set(bucketKey, b);
  }
  const resetAt = b.start + WINDOW_MS;
  const allowed = b.count < limit;
  if (allowed) b.count++;
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - b.count),
    reset: Math.ceil(resetAt / 1000),
    retryAfter: Math.max(1, Math.ceil((resetAt - now) / 1000)),
  };
}

const pruneTimer = setInterval(
  () => {
    const now = Date.now();
    for (const [k, b] of buckets) if (now >= b.start + WINDOW_MS) buckets.delete(k);
  },
  Math.max(WINDOW_MS, 10_000),
);
pruneTimer.unref();

function applyRateLimit(res, bucketKey, limit) {
  const r = takeToken(bucketKey, limit);
  res.set({
    'X-RateLimit-Limit': String(r.limit),
    'X-RateLimit-Remaining': String(r.remaining),
    'X-RateLimit-Reset': String(r.reset),
  });
  if (!r.allowed) {
    res.set('Retry-After', String(r.retryAfter));
    // The document's 429 example body has no `path` member.
    res.status(429).json({
      error: {
        type: 'rate_limit_error',
        code: 'rate_limit_exceeded',
        message: `Rate limit exceeded. Retry in ${r.retryAfter} seconds.`,
        param: null,
      },
    });
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Authentication + rate-limit middleware (mounted first)
// ---------------------------------------------------------------------------

const TOKEN_SYNTAX = new RegExp(`^${KEY_PREFIX}[A-Za-z0-9]+$`);

function authenticate(req, res, next) {
  const header = req.headers.authorization;
  if (header === undefined) {
    // Unauthenticated requests: per-IP budget, then 401.
    const ip = req.socket.remoteAddress || 'unknown';
    if (!applyRateLimit(res, `ip:${ip}`, PER_IP_LIMIT)) return;
    return sendError(res, unauthenticated('No API key provided. Send "Authorization: Bearer <API_KEY>".'));
  }
  // Scheme is case-insensitive; one or more spaces (RFC 7235); exactly one token.
  const m = /^[ \t]*([A-Za-z]+)(?:[ ]+(.*?))?[ \t]*$/.exec(header);
  if (!m || m[1].toLowerCase() !== 'bearer') {
    return sendError(res, unauthenticated('Malformed Authorization header: expected the Bearer scheme.'));
  }
  const token = m[2];
  if (!token) return sendError(res, unauthenticated('Malformed Authorization header: the Bearer token is empty.'));
  if (/\s/.test(token)) return sendError(res, unauthenticated('Malformed Authorization header: unexpected data after the token.'));
  if (!token.startsWith(KEY_PREFIX) || !TOKEN_SYNTAX.test(token)) {
    return sendError(res, unauthenticated('Malformed API key: keys start with the documented prefix.'));
  }
  const key = keysByHash.get(hashKey(token));
  if (!key) return sendError(res, unauthenticated('Invalid API key: the key is unknown or has been revoked.'));

  if (!applyRateLimit(res, `key:${key.id}`, PER_KEY_LIMIT)) return;
  key.lastUsedAt = new Date().toISOString();
  req.apiKey = key;
  req.account = accounts.get(key.accountId);
  next();
}

// ---------------------------------------------------------------------------
// Parameter parsing
// ---------------------------------------------------------------------------

function intParam(query, name, def, min, max) {
  if (!has(query, name)) return def;
  const raw = query[name];
  if (typeof raw !== 'string') throw invalid(`Parameter ${name} must be given once, as an integer.`, name, { code: 'invalid_integer' });
  if (!/^[0-9]+$/.test(raw)) throw invalid(`Parameter ${name} must be an integer, got ${JSON.stringify(raw)}.`, name, { code: 'invalid_integer' });
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw invalid(`Parameter ${name} must be between ${min} and ${max}.`, name, { code: 'out_of_range' });
  }
  return n;
}

function stringFilter(query, name) {
  if (!has(query, name)) return undefined;
  const raw = query[name];
  if (typeof raw !== 'string') throw invalid(`Parameter ${name} must be given once, as a string.`, name);
  if (raw === '') return undefined;
  return raw;
}

function paginate(req, res, items, view) {
  const page = intParam(req.query, 'page', PAGE_DEFAULT, 1, Number.MAX_SAFE_INTEGER);
  const limit = intParam(req.query, 'limit', LIMIT_DEFAULT, 1, LIMIT_MAX);
  const start = (page - 1) * limit;
  const slice = start < items.length ? items.slice(start, start + limit) : [];
  res.json({
    items: slice.map(view),
    has_more: start + slice.length < items.length,
    total_count: items.length,
  });
}

// ---------------------------------------------------------------------------
// Router helpers
// ---------------------------------------------------------------------------

// Adds an OPTIONS answer (204 + Allow; Express's automatic one has a text body)
// and a JSON 405 for every other method on a route.
function finishRoute(route, methods) {
  const allow = [...methods];
  if (allow.includes('GET') && !allow.includes('HEAD')) allow.splice(allow.indexOf('GET') + 1, 0, 'HEAD');
  allow.push('OPTIONS');
  const allowHeader = allow.join(', ');
  route.all((req, res) => {
    res.set('Allow', allowHeader);
    if (req.method === 'OPTIONS') return res.status(204).end();
    sendError(
      res,
      new ApiError(405, 'invalid_request_error', `Method ${req.method} is not allowed on ${req.baseUrl}${req.path}. Allowed: ${allowHeader}.`, {
        code: 'method_not_allowed',
      }),
    );
  });
}

// Wraps a handler so that thrown ApiErrors reach the error middleware.
const h = (fn) => (req, res, next) => {
  try {
    fn(req, res, next);
  } catch (err) {
    next(err);
  }
};

function findOwned(collection, id, label) {
  const item = collection.find((x) => x.id === id);
  if (!item) throw notFound(`No such ${label}: '${id}'.`);
  return item;
}

// Standard read-only resource: list + retrieval.
function resourceRouter({ collection, view, label, filter }) {
  const router = express.Router();
  finishRoute(
    router.route('/').get(
      h((req, res) => {
        let items = req.account[collection];
        if (filter) items = filter(req, items);
        paginate(req, res, items, view);
      }),
    ),
    ['GET'],
  );
  finishRoute(
    router.route('/:id').get(
      h((req, res) => {
        res.json(view(findOwned(req.account[collection], req.params.id, label)));
      }),
    ),
    ['GET'],
  );
  return router;
}

// ---------------------------------------------------------------------------
// Routers
// ---------------------------------------------------------------------------

const workspacesRouter = resourceRouter({ collection: 'workspaces', view: views.workspace, label: 'workspace' });
const governanceModelsRouter = resourceRouter({ collection: 'governanceModels', view: views.governanceModel, label: 'governance model' });
const recordsRouter = resourceRouter({
  collection: 'records',
  view: views.record,
  label: 'record',
  filter(req, items) {
    const status = stringFilter(req.query, 'status');
    if (status !== undefined && !RECORD_STATUSES.includes(status)) {
      throw invalid(`Parameter status must be one of: ${RECORD_STATUSES.join(', ')}.`, 'status');
    }
    const serviceId = stringFilter(req.query, 'service_id');
    return items.filter((r) => (status === undefined || r.status === status) && (serviceId === undefined || r.serviceId === serviceId));
  },
});
const taxonomiesRouter = resourceRouter({ collection: 'taxonomies', view: views.taxonomy, label: 'taxonomy' });
const fieldsRouter = resourceRouter({
  collection: 'fields',
  view: views.field,
  label: 'field',
  filter(req, items) {
    const taxonomy = stringFilter(req.query, 'taxonomy');
    return taxonomy === undefined ? items : items.filter((f) => f.taxonomyId === taxonomy);
  },
});
const picklistsRouter = resourceRouter({ collection: 'picklists', view: views.picklist, label: 'picklist' });

// --- Submissions ---
const submissionsRouter = express.Router();

function validateSubmission(req) {
  const body = req.body;
  const query = req.query;

  // Workspace query parameter (required).
  if (!has(query, 'workspace') || query.workspace === '') throw missing('workspace');
  if (typeof query.workspace !== 'string') throw invalid('Parameter workspace must be given once, as a string.', 'workspace');

  for (const name of ['workspace_id', 'taxonomy_id', 'rows']) {
    if (!has(body, name)) throw missing(name, { path: name });
  }
  for (const name of ['workspace_id', 'taxonomy_id']) {
    if (typeof body[name] !== 'string') throw invalid(`${name} must be a string.`, name, { path: name, code: 'invalid_type' });
    if (body[name] === '') throw invalid(`${name} must not be empty.`, name, { path: name });
  }
  if (!Array.isArray(body.rows)) throw invalid('rows must be an array of objects.', 'rows', { path: 'rows', code: 'invalid_type' });
  if (body.rows.length === 0) throw invalid('rows must contain at least one row.', 'rows', { path: 'rows', code: 'rows_empty' });
  if (body.rows.length > MAX_ROWS_PER_SUBMISSION) {
    throw invalid(`rows may hold at most ${MAX_ROWS_PER_SUBMISSION} rows per submission.`, 'rows', { path: 'rows', code: 'too_many_rows' });
  }
  body.rows.forEach((row, i) => {
    if (!isPlainObject(row)) throw invalid(`rows[${i}] must be an object with a data member.`, 'rows', { path: `rows[${i}]`, code: 'invalid_type' });
    if (!has(row, 'data')) throw missing('rows', { path: `rows[${i}].data`, message: `Missing required parameter: rows[${i}].data.` });
    if (!isPlainObject(row.data)) throw invalid(`rows[${i}].data must be an object.`, 'rows', { path: `rows[${i}].data`, code: 'invalid_type' });
  });
  if (query.workspace !== body.workspace_id) {
    throw invalid('The workspace query parameter and body workspace_id must name the same workspace.', 'workspace', { code: 'workspace_mismatch' });
  }
}

finishRoute(
  submissionsRouter
    .route('/')
    .get(
      h((req, res) => {
        const workspace = stringFilter(req.query, 'workspace');
        const taxonomy = stringFilter(req.query, 'taxonomy');
        const items = req.account.submissions.filter(
          (s) => (workspace === undefined || s.workspaceId === workspace) && (taxonomy === undefined || s.taxonomyId === taxonomy),
        );
        paginate(req, res, items, views.submission);
      }),
    )
    .post(
      h((req, res) => {
        validateSubmission(req);
        const account = req.account;
        const workspace = findOwned(account.workspaces, req.body.workspace_id, 'workspace');
        const taxonomy = findOwned(account.taxonomies, req.body.taxonomy_id, 'taxonomy');
        const submission = {
          id: newId('sub'),
          workspaceId: workspace.id,
          taxonomyId: taxonomy.id,
          rows: req.body.rows.map((r) => ({ data: r.data })),
          createdAt: new Date().toISOString(),
        };
        account.submissions.push(submission);
        res.status(201).location(`${req.baseUrl}/${submission.id}`).json(views.submission(submission));
      }),
    ),
  ['GET', 'POST'],
);

finishRoute(
  submissionsRouter.route('/:id').get(
    h((req, res) => {
      res.json(views.submission(findOwned(req.account.submissions, req.params.id, 'submission')));
    }),
  ),
  ['GET'],
);

// --- API keys ---
const apiKeysRouter = express.Router();

finishRoute(
  apiKeysRouter
    .route('/')
    .get(h((req, res) => paginate(req, res, req.account.apiKeys, views.apiKey)))
    .post(
      h((req, res) => {
        const body = req.body;
        if (!has(body, 'name')) throw missing('name', { path: 'name' });
        if (typeof body.name !== 'string') throw invalid('name must be a string.', 'name', { path: 'name', code: 'invalid_type' });
        const name = body.name.trim();
        if (name === '') throw invalid('name must not be empty.', 'name', { path: 'name' });
        if (name.length > 200) throw invalid('name must be at most 200 characters.', 'name', { path: 'name', code: 'too_long' });
        const { record, secret } = issueKey(req.account, name);
        res
          .status(201)
          .set('Cache-Control', 'no-store')
          .location(`${req.baseUrl}/${record.id}`)
          .json({ ...views.apiKey(record), secret });
      }),
    ),
  ['GET', 'POST'],
);

finishRoute(
  apiKeysRouter.route('/:id').delete(
    h((req, res) => {
      const key = findOwned(req.account.apiKeys, req.params.id, 'API key');
      revokeKey(req.account, key);
      res.status(204).end();
    }),
  ),
  ['DELETE'],
);

// --- Admin-only area: API keys never have access ---
const adminRouter = express.Router();
adminRouter.use((req, res, next) => {
  next(
    new ApiError(403, 'authorization_error', 'This endpoint is restricted to account administrators signed in to the web app; API keys cannot access it.', {
      code: 'admin_only',
    }),
  );
});

// ---------------------------------------------------------------------------
// Application
// ---------------------------------------------------------------------------

const app = express();
app.disable('x-powered-by');

app.use((req, res, next) => {
  res.set('X-Request-Id', `req_${randomString(20)}`);
  res.set('Cache-Control', 'no-store');
  next();
});
app.use(authenticate);
app.use(express.json({ limit: BODY_LIMIT, strict: true }));
app.use((req, res, next) => {
  // Requests that carry a body must be JSON.
  if (['POST', 'PUT', 'PATCH'].includes(req.method)) {
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] || 0) > 0;
    if (hasBody && !req.is('application/json')) {
      return next(
        new ApiError(415, 'invalid_request_error', 'Request bodies must be sent with Content-Type: application/json.', {
          code: 'unsupported_media_type',
        }),
      );
    }
    if (req.body === undefined) req.body = {};
    if (!isPlainObject(req.body)) {
      return next(new ApiError(400, 'invalid_request_error', 'The request body must be a JSON object.', { code: 'invalid_body' }));
    }
  }
  next();
});

const v1 = express.Router();
v1.use('/workspaces', workspacesRouter);
v1.use('/governance_models', governanceModelsRouter);
v1.use('/records', recordsRouter);
v1.use('/taxonomies', taxonomiesRouter);
v1.use('/fields', fieldsRouter);
v1.use('/picklists', picklistsRouter);
v1.use('/submissions', submissionsRouter);
v1.use('/api_keys', apiKeysRouter);
v1.use('/admin', adminRouter);
app.use('/api/v1', v1);

// Unknown paths (any method): JSON 404 instead of finalhandler's HTML.
app.use((req, res, next) => {
  next(notFound(`Unrecognized request URL (${req.method} ${req.path}).`));
});

// Error middleware: every failure is the JSON error envelope.
// eslint-disable-next-line no-unused-vars
app.use((err, req, res, next) => {
  if (res.headersSent) return req.socket.destroy();
  if (!(err instanceof ApiError)) err = fromFrameworkError(err);
  sendError(res, err);
});

function fromFrameworkError(err) {
  switch (err && err.type) {
    case 'entity.parse.failed':
      return new ApiError(400, 'invalid_request_error', 'The request body is not valid JSON.', { code: 'invalid_json' });
    case 'entity.too.large':
      return new ApiError(413, 'invalid_request_error', `The request body exceeds the ${BODY_LIMIT} limit.`, { code: 'body_too_large' });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError(415, 'invalid_request_error', 'Unsupported request body encoding or charset.', { code: 'unsupported_media_type' });
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new ApiError(400, 'invalid_request_error', 'The request body could not be read.', { code: 'invalid_body' });
    default:
      break;
  }
  // Router could not decode a path segment (e.g. /records/%E0): no such resource.
  if (err instanceof URIError || (err && err.status === 400 && /decode param/i.test(err.message || ''))) {
    return notFound('No resource matches this path.');
  }
  if (err && Number.isInteger(err.status) && err.status >= 400 && err.status < 500) {
    return new ApiError(err.status, 'invalid_request_error', 'The request could not be processed.', { code: 'bad_request' });
  }
  process.stderr.write(`unexpected error: ${err && err.stack ? err.stack : err}\n`);
  return new ApiError(500, 'api_error', 'An unexpected error occurred. Please retry later.');
}

// ---------------------------------------------------------------------------
// Start / stop
// ---------------------------------------------------------------------------

const server = app.listen(options.port, options.host, () => {
  const addr = server.address();
  const host = addr.family === 'IPv6' || addr.family === 6 ? `[${options.host}]` : options.host;
  const url = `http://${host}:${addr.port}`;
  process.stdout.write(`{"url": ${JSON.stringify(url)}, "keys": {"main": ${JSON.stringify(seedKeys.main)}, "other": ${JSON.stringify(seedKeys.other)}}}\n`);
});
server.keepAliveTimeout = 5000;
server.on('error', (err) => {
  process.stderr.write(`server.mjs: cannot listen: ${err.message}\n`);
  process.exit(1);
});

// Requests Node's HTTP parser rejects never reach Express; answer them in JSON too.
server.on('clientError', (err, socket) => {
  if (err.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  const body = JSON.stringify({
    error: {
      type: 'invalid_request_error',
      code: tooLarge ? 'headers_too_large' : 'malformed_request',
      message: tooLarge ? 'Request headers are too large.' : 'The HTTP request is malformed.',
      param: null,
      path: null,
    },
  });
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
});

const sockets = new Set();
server.on('connection', (socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
});

let stopping = false;
function shutdown() {
  if (stopping) return;
  stopping = true;
  server.close(() => process.exit(0));
  for (const s of sockets) s.destroy();
  setTimeout(() => process.exit(0), 1000).unref();
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
