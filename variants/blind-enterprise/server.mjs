// API v1 -- "blind-enterprise" implementation.
// Single file, Node 20 standard library only, in-memory storage, deterministic seed data.
//
//   node variants/blind-enterprise/server.mjs [--host 127.0.0.1] [--port 0] [--window-seconds 60]
//
// Written in the style of a layered Spring application: configuration, domain model,
// repositories, services, a security filter chain (authentication, rate limiting),
// controllers and a global exception handler. See README.md for every decision.

import http from 'node:http';
import crypto from 'node:crypto';

// ---------------------------------------------------------------------------------------
// Configuration ("application.properties")
// ---------------------------------------------------------------------------------------

const Config = (() => {
  const args = process.argv.slice(2);
  const opts = { host: '127.0.0.1', port: 0, windowSeconds: 60 };
  for (let i = 0; i < args.length; i++) {
    let a = args[i];
    let v;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) {
      v = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    const next = () => (v !== undefined ? v : args[++i]);
    switch (a) {
      case '--host':
        opts.host = next();
        break;
      case '--port':
        opts.port = Number.parseInt(next(), 10);
        break;
      case '--window-seconds':
        opts.windowSeconds = Number.parseInt(next(), 10);
        break;
      default:
        break; // unknown options are ignored
    }
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) opts.port = 0;
  if (!Number.isInteger(opts.windowSeconds) || opts.windowSeconds < 1) opts.windowSeconds = 60;
  return Object.freeze({
    ...opts,
    apiPrefix: '/api/v1',
    keyPrefix: 'ek_live_',
    keySecretLength: 40,
    perKeyCeiling: 100,
    unauthenticatedCeiling: 20,
    defaultPage: 1,
    defaultLimit: 100,
    maxLimit: 10000,
    maxBodyBytes: 2 * 1024 * 1024,
    maxRowsPerSubmission: 1000,
    maxActiveKeysPerAccount: 50,
    maxKeyNameLength: 255,
  });
})();

// ---------------------------------------------------------------------------------------
// Utilities
// ---------------------------------------------------------------------------------------

/** Deterministic, RFC 4122 shaped (version 5 style) UUID derived from a seed name. */
function seededUuid(name) {
  const h = crypto
    .createHash('sha1')
    .update('blind-enterprise:' + name)
    .digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomSecret(len) {
  let out = '';
  while (out.length < len) {
    const buf = crypto.randomBytes(len * 2);
    for (const b of buf) {
      if (b < 248 && out.length < len) out += BASE62[b % 62];
    }
  }
  return out;
}

function sha256(s) {
  return crypto.createHash('sha256').update(s, 'utf8').digest('hex');
}

function isoNow() {
  return new Date().toISOString(); // ISO-8601, UTC, millisecond precision
}

function isPlainObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

// ---------------------------------------------------------------------------------------
// Exceptions (mapped by the GlobalExceptionHandler)
// ---------------------------------------------------------------------------------------

class ApiException extends Error {
  constructor(status, type, code, message, param = null, path = null, extra = {}) {
    super(message);
    this.status = status;
    this.type = type;
    this.code = code;
    this.param = param;
    this.path = path;
    this.extra = extra; // { headers, flatAuthShape }
  }
}

const Errors = {
  missingParam(param, where) {
    const location = where === 'query' ? 'query parameter' : 'request body field';
    return new ApiException(
      400,
      'invalid_request_error',
      'missing_param',
      `Required ${location} '${param}' is not present.`,
      param,
      where === 'body' ? param : null,
    );
  },
  invalid(param, code, message, path = null) {
    return new ApiException(422, 'invalid_request_error', code, message, param, path);
  },
  notFound(message) {
    return new ApiException(404, 'not_found_error', null, message, null, null);
  },
  forbidden(message) {
    return new ApiException(403, 'authorization_error', 'insufficient_permissions', message, null, null);
  },
  planLimit(param, message) {
    return new ApiException(422, 'plan_limit_exceeded', 'limit_exceeded', message, param, null);
  },
};

// ---------------------------------------------------------------------------------------
// Domain + repositories (in-memory)
// ---------------------------------------------------------------------------------------

class Repository {
  constructor() {
    this.byId = new Map();
    this.seq = 0;
  }
  save(entity) {
    if (!this.byId.has(entity.id)) entity._seq = ++this.seq;
    this.byId.set(entity.id, entity);
    return entity;
  }
  findById(accountId, id) {
    const e = this.byId.get(typeof id === 'string' ? id.toLowerCase() : id);
    return e && e.accountId === accountId ? e : null;
  }
  delete(id) {
    this.byId.delete(id);
  }
  /** Stable order: creation time ascending, then insertion sequence. */
  findAll(accountId, predicate = () => true) {
    const out = [];
    for (const e of this.byId.values()) if (e.accountId === accountId && predicate(e)) out.push(e);
    out.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a._seq - b._seq));
    return out;
  }
}

const repos = {
  accounts: new Map(),
  workspaces: new Repository(),
  governanceModels: new Repository(),
  records: new Repository(),
  taxonomies: new Repository(),
  fields: new Repository(),
  picklists: new Repository(),
  submissions: new Repository(),
  apiKeys: new Repository(),
};
const keyHashIndex = new Map(); // sha256(secret) -> apiKey id

// ---------------------------------------------------------------------------------------
// Seed data (deterministic; only the key secrets are random per start)
// ---------------------------------------------------------------------------------------

const RECORD_STATUSES = ['pending', 'active', 'archived'];

function seedTime(base, offsetMinutes) {
  return new Date(Date.parse(base) + offsetMinutes * 60000).toISOString();
}

function seedAccount(acc) {
  const { id: accountId, tag, recordCount, base } = acc;
  repos.accounts.set(accountId, { id: accountId, name: acc.name });
  let t = 0;
  const ts = () => seedTime(base, t++);

  const workspaces = acc.workspaces.map(([name, description]) =>
    repos.workspaces.save({ id: seededUuid(`${tag}:workspace:${name}`), accountId, name, description, createdAt: ts() }),
  );

  for (const [name, description] of acc.governanceModels) {
    repos.governanceModels.save({ id: seededUuid(`${tag}:gm:${name}`), accountId, name, description, createdAt: ts() });
  }

  const taxonomies = acc.taxonomies.map(([name, description]) =>
    repos.taxonomies.save({ id: seededUuid(`${tag}:taxonomy:${name}`), accountId, name, description, createdAt: ts() }),
  );

  const picklists = acc.picklists.map(([name, values]) =>
    repos.picklists.save({ id: seededUuid(`${tag}:picklist:${name}`), accountId, name, values, createdAt: ts() }),
  );

  acc.fields.forEach(([name, dataType, required, taxIdx, pickIdx]) => {
    repos.fields.save({
      id: seededUuid(`${tag}:field:${name}:${taxIdx}`),
      accountId,
      name,
      dataType,
      required,
      taxonomyId: taxonomies[taxIdx].id,
      picklistId: pickIdx == null ? null : picklists[pickIdx].id,
      createdAt: ts(),
    });
  });

  for (let i = 1; i <= recordCount; i++) {
    repos.records.save({
      id: seededUuid(`${tag}:record:${i}`),
      accountId,
      status: RECORD_STATUSES[(i - 1) % RECORD_STATUSES.length],
      serviceId: `${tag.toUpperCase()}-${String(i).padStart(6, '0')}`,
      data: { sequence: i, title: `${acc.name} record ${i}`, amount: Math.round(((i * 37) % 1000) * 100) / 100, tags: i % 2 ? ['odd'] : ['even'] },
      createdAt: ts(),
      updatedAt: null,
    });
  }

  acc.submissions.forEach(([wsIdx, taxIdx, rows], n) => {
    const createdAt = ts();
    repos.submissions.save({
      id: seededUuid(`${tag}:submission:${n}`),
      accountId,
      workspaceId: workspaces[wsIdx].id,
      taxonomyId: taxonomies[taxIdx].id,
      rows,
      createdAt,
    });
  });

  // API keys: one extra "historic" key whose secret nobody knows, then the key handed to the caller.
  for (const name of acc.extraKeys) {
    const secret = Config.keyPrefix + randomSecret(Config.keySecretLength);
    const k = repos.apiKeys.save({ id: seededUuid(`${tag}:apikey:${name}`), accountId, name, hash: sha256(secret), createdAt: ts(), lastUsedAt: null });
    keyHashIndex.set(k.hash, k.id);
  }
  const secret = Config.keyPrefix + randomSecret(Config.keySecretLength);
  const k = repos.apiKeys.save({
    id: seededUuid(`${tag}:apikey:${acc.keyName}`),
    accountId,
    name: acc.keyName,
    hash: sha256(secret),
    createdAt: ts(),
    lastUsedAt: null,
  });
  keyHashIndex.set(k.hash, k.id);
  return secret;
}

const mainKey = seedAccount({
  id: seededUuid('account:1'),
  tag: 'acme',
  name: 'Acme Corp',
  base: '2024-01-15T08:00:00.000Z',
  recordCount: 263,
  workspaces: [
    ['Main', 'Default workspace created at sign-up'],
    ['Finance', 'Finance and controlling data'],
    ['Operations', 'Operational datasets'],
  ],
  governanceModels: [
    ['GDPR Baseline', 'EU General Data Protection Regulation baseline model'],
    ['SOX Controls', 'Sarbanes-Oxley internal controls'],
    ['Internal Default', null],
    ['ISO 27001', 'Information security management'],
  ],
  taxonomies: [
    ['Products', 'Product master data'],
    ['Customers', 'Customer master data'],
    ['Suppliers', null],
  ],
  picklists: [
    ['Countries', ['DE', 'FR', 'US', 'GB']],
    ['Currencies', ['EUR', 'USD', 'GBP']],
    ['Priorities', ['low', 'medium', 'high']],
  ],
  fields: [
    ['sku', 'string', true, 0, null],
    ['price', 'decimal', false, 0, 1],
    ['customer_name', 'string', true, 1, null],
    ['country', 'picklist', false, 1, 0],
    ['supplier_code', 'string', true, 2, null],
  ],
  submissions: [
    [0, 0, [{ data: { sku: 'A-1', price: 9.99 } }]],
    [1, 1, [{ data: { customer_name: 'Initech' } }, { data: { customer_name: 'Umbrella' } }]],
    [0, 2, [{ data: { supplier_code: 'S-77' } }]],
  ],
  extraKeys: ['CI pipeline (legacy)'],
  keyName: 'Primary integration key',
});

const otherKey = seedAccount({
  id: seededUuid('account:2'),
  tag: 'globex',
  name: 'Globex Inc',
  base: '2024-02-01T10:00:00.000Z',
  recordCount: 12,
  workspaces: [
    ['Main', 'Default workspace created at sign-up'],
    ['Research', 'R&D datasets'],
  ],
  governanceModels: [
    ['Globex Governance', 'Corporate data governance model'],
    ['Sandbox', null],
  ],
  taxonomies: [
    ['Assets', 'Fixed assets'],
    ['Projects', null],
  ],
  picklists: [
    ['Regions', ['EMEA', 'APAC', 'AMER']],
    ['Stages', ['draft', 'review', 'done']],
  ],
  fields: [
    ['asset_tag', 'string', true, 0, null],
    ['region', 'picklist', false, 0, 0],
    ['project_code', 'string', true, 1, null],
  ],
  submissions: [
    [0, 0, [{ data: { asset_tag: 'GX-1' } }]],
    [1, 1, [{ data: { project_code: 'P-9' } }]],
  ],
  extraKeys: [],
  keyName: 'Globex integration key',
});

// ---------------------------------------------------------------------------------------
// Rate limiting: fixed windows aligned to the clock (multiples of windowSeconds since epoch)
// ---------------------------------------------------------------------------------------

class FixedWindowRateLimiter {
  constructor(ceiling, windowSeconds) {
    this.ceiling = ceiling;
    this.windowMs = windowSeconds * 1000;
    this.buckets = new Map();
  }
  _bucket(key, now) {
    const start = Math.floor(now / this.windowMs) * this.windowMs;
    let b = this.buckets.get(key);
    if (!b || b.start !== start) {
      b = { start, used: 0 };
      this.buckets.set(key, b);
      if (this.buckets.size > 10000) this._evict(start);
    }
    return b;
  }
  _evict(start) {
    for (const [k, b] of this.buckets) if (b.start !== start) this.buckets.delete(k);
  }
  _state(b, now, allowed) {
    const resetMs = b.start + this.windowMs;
    return {
      allowed,
      limit: this.ceiling,
      remaining: Math.max(0, this.ceiling - b.used),
      reset: Math.ceil(resetMs / 1000),
      retryAfter: Math.max(1, Math.ceil((resetMs - now) / 1000)),
    };
  }
  consume(key) {
    const now = Date.now();
    const b = this._bucket(key, now);
    if (b.used >= this.ceiling) return this._state(b, now, false);
    b.used++;
    return this._state(b, now, true);
  }
  peek(key) {
    const now = Date.now();
    return this._state(this._bucket(key, now), now, true);
  }
}

const perKeyLimiter = new FixedWindowRateLimiter(Config.perKeyCeiling, Config.windowSeconds);
const perIpLimiter = new FixedWindowRateLimiter(Config.unauthenticatedCeiling, Config.windowSeconds);

function rateLimitHeaders(state) {
  const h = {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.reset),
  };
  if (!state.allowed) h['Retry-After'] = String(state.retryAfter);
  return h;
}

function rateLimitException(state) {
  const e = new ApiException(
    429,
    'rate_limit_error',
    'rate_limit_exceeded',
    `Rate limit of ${state.limit} requests per ${Config.windowSeconds} seconds exceeded. Retry in ${state.retryAfter} seconds.`,
    null,
    null,
  );
  return e;
}

// ---------------------------------------------------------------------------------------
// Representation assemblers (HAL-style _links)
// ---------------------------------------------------------------------------------------

function link(ctx, path) {
  return { href: ctx.baseUrl + path };
}
const P = Config.apiPrefix;

const Assemblers = {
  workspace: (ctx, w) => ({
    id: w.id,
    name: w.name,
    description: w.description,
    createdAt: w.createdAt,
    _links: { self: link(ctx, `${P}/workspaces/${w.id}`), submissions: link(ctx, `${P}/submissions?workspaceId=${w.id}`) },
  }),
  governanceModel: (ctx, g) => ({
    id: g.id,
    name: g.name,
    description: g.description,
    createdAt: g.createdAt,
    _links: { self: link(ctx, `${P}/governance_models/${g.id}`) },
  }),
  record: (ctx, r) => ({
    id: r.id,
    status: r.status,
    service_id: r.serviceId,
    data: r.data,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    _links: { self: link(ctx, `${P}/records/${r.id}`) },
  }),
  taxonomy: (ctx, t) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    createdAt: t.createdAt,
    _links: { self: link(ctx, `${P}/taxonomies/${t.id}`), fields: link(ctx, `${P}/fields?taxonomyId=${t.id}`) },
  }),
  field: (ctx, f) => ({
    id: f.id,
    name: f.name,
    dataType: f.dataType,
    required: f.required,
    taxonomyId: f.taxonomyId,
    picklistId: f.picklistId,
    createdAt: f.createdAt,
    _links: { self: link(ctx, `${P}/fields/${f.id}`), taxonomy: link(ctx, `${P}/taxonomies/${f.taxonomyId}`) },
  }),
  picklist: (ctx, p) => ({ id: p.id, name: p.name, values: p.values, createdAt: p.createdAt, _links: { self: link(ctx, `${P}/picklists/${p.id}`) } }),
  submissionSummary: (ctx, s) => ({
    id: s.id,
    workspace_id: s.workspaceId,
    taxonomy_id: s.taxonomyId,
    rowCount: s.rows.length,
    createdAt: s.createdAt,
    _links: {
      self: link(ctx, `${P}/submissions/${s.id}`),
      workspace: link(ctx, `${P}/workspaces/${s.workspaceId}`),
      taxonomy: link(ctx, `${P}/taxonomies/${s.taxonomyId}`),
    },
  }),
  submissionDetail: (ctx, s) => ({ ...Assemblers.submissionSummary(ctx, s), rows: s.rows }),
  apiKey: (ctx, k) => ({ id: k.id, name: k.name, createdAt: k.createdAt, lastUsedAt: k.lastUsedAt, _links: { self: link(ctx, `${P}/api_keys/${k.id}`) } }),
};

// ---------------------------------------------------------------------------------------
// Pagination
// ---------------------------------------------------------------------------------------

function parseIntParam(ctx, name, def, min, max) {
  if (!ctx.query.has(name)) return def;
  const raw = ctx.query.get(name); // first occurrence wins
  if (!/^[+]?\d+$/.test(raw.trim()) && !/^-\d+$/.test(raw.trim())) {
    throw Errors.invalid(name, 'invalid_type', `Query parameter '${name}' must be an integer between ${min} and ${max}; got '${raw}'.`);
  }
  const n = Number(raw.trim());
  if (!Number.isSafeInteger(n) || n > 2147483647 || n < min || n > max) {
    throw Errors.invalid(name, 'out_of_range', `Query parameter '${name}' must be between ${min} and ${max} inclusive; got '${raw}'.`);
  }
  return n;
}

function paginate(ctx, all, assemble, extraQuery = {}) {
  const limit = parseIntParam(ctx, 'limit', Config.defaultLimit, 1, Config.maxLimit);
  const page = parseIntParam(ctx, 'page', Config.defaultPage, 1, 2147483647);
  const total = all.length;
  const offset = (page - 1) * limit;
  const items = offset < total ? all.slice(offset, offset + limit).map((e) => assemble(ctx, e)) : [];
  const totalPages = Math.ceil(total / limit);
  const hasMore = offset + limit < total;
  const qs = (p) => {
    const u = new URLSearchParams();
    for (const [k, v] of Object.entries(extraQuery)) if (v != null) u.set(k, v);
    u.set('page', String(p));
    u.set('limit', String(limit));
    return `${ctx.baseUrl}${ctx.path}?${u}`;
  };
  const links = { self: { href: qs(page) }, first: { href: qs(1) }, last: { href: qs(Math.max(1, totalPages)) } };
  if (hasMore) links.next = { href: qs(page + 1) };
  if (page > 1) links.prev = { href: qs(Math.min(page - 1, Math.max(1, totalPages))) };
  return { items, has_more: hasMore, total_count: total, page, limit, totalPages, _links: links };
}

// ---------------------------------------------------------------------------------------
// Body handling
// ---------------------------------------------------------------------------------------

function parseJsonBody(ctx) {
  if (ctx.bodyTooLarge) {
    throw Errors.invalid(null, 'payload_too_large', `Request body exceeds the maximum size of ${Config.maxBodyBytes} bytes.`);
  }
  const raw = ctx.rawBody;
  if (raw.length === 0 || raw.toString('utf8').trim() === '') return {}; // no body: every field is missing
  const ct = String(ctx.req.headers['content-type'] || '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (ct !== 'application/json' && !/^application\/[a-z0-9.+-]*\+json$/.test(ct)) {
    throw Errors.invalid(
      null,
      'unsupported_media_type',
      `Content-Type '${ct || '(none)'}' is not supported. Requests with a body must use 'application/json'.`,
    );
  }
  let body;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch (e) {
    throw Errors.invalid(null, 'malformed_body', `Request body is not valid JSON: ${e.message}`);
  }
  if (!isPlainObject(body)) {
    throw Errors.invalid(null, 'invalid_type', 'Request body must be a JSON object.');
  }
  return body;
}

function rejectUnknownFields(body, allowed) {
  for (const k of Object.keys(body)) {
    if (!allowed.includes(k)) {
      throw Errors.invalid(k, 'unknown_field', `Unrecognized field '${k}' (known fields: ${allowed.join(', ')}).`, k);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Controllers
// ---------------------------------------------------------------------------------------

function ok(body, status = 200, headers = {}) {
  return { status, body, headers };
}

function getOr404(repo, ctx, id, label) {
  const e = UUID_RE.test(id) ? repo.findById(ctx.accountId, id) : null;
  if (!e) throw Errors.notFound(`${label} with id '${id}' was not found.`);
  return e;
}

const Controllers = {
  listWorkspaces: (ctx) => ok(paginate(ctx, repos.workspaces.findAll(ctx.accountId), Assemblers.workspace)),
  getWorkspace: (ctx, id) => ok(Assemblers.workspace(ctx, getOr404(repos.workspaces, ctx, id, 'Workspace'))),

  listGovernanceModels: (ctx) => ok(paginate(ctx, repos.governanceModels.findAll(ctx.accountId), Assemblers.governanceModel)),
  getGovernanceModel: (ctx, id) => ok(Assemblers.governanceModel(ctx, getOr404(repos.governanceModels, ctx, id, 'Governance model'))),

  listRecords: (ctx) => {
    let status = null;
    if (ctx.query.has('status')) {
      status = ctx.query.get('status');
      if (!RECORD_STATUSES.includes(status)) {
        throw Errors.invalid('status', 'invalid_enum_value', `Query parameter 'status' must be one of ${RECORD_STATUSES.join(', ')}; got '${status}'.`);
      }
    }
    const all = repos.records.findAll(ctx.accountId, (r) => status == null || r.status === status);
    return ok(paginate(ctx, all, Assemblers.record, { status }));
  },
  getRecord: (ctx, id) => ok(Assemblers.record(ctx, getOr404(repos.records, ctx, id, 'Record'))),

  listTaxonomies: (ctx) => ok(paginate(ctx, repos.taxonomies.findAll(ctx.accountId), Assemblers.taxonomy)),
  getTaxonomy: (ctx, id) => ok(Assemblers.taxonomy(ctx, getOr404(repos.taxonomies, ctx, id, 'Taxonomy'))),

  listFields: (ctx) => {
    const tax = ctx.query.has('taxonomyId') ? ctx.query.get('taxonomyId').toLowerCase() : null;
    const all = repos.fields.findAll(ctx.accountId, (f) => tax == null || f.taxonomyId === tax);
    return ok(paginate(ctx, all, Assemblers.field, { taxonomyId: tax }));
  },
  getField: (ctx, id) => ok(Assemblers.field(ctx, getOr404(repos.fields, ctx, id, 'Field'))),

  listPicklists: (ctx) => ok(paginate(ctx, repos.picklists.findAll(ctx.accountId), Assemblers.picklist)),
  getPicklist: (ctx, id) => ok(Assemblers.picklist(ctx, getOr404(repos.picklists, ctx, id, 'Picklist'))),

  listSubmissions: (ctx) => {
    const ws = ctx.query.has('workspaceId') ? ctx.query.get('workspaceId').toLowerCase() : null;
    const tax = ctx.query.has('taxonomyId') ? ctx.query.get('taxonomyId').toLowerCase() : null;
    const all = repos.submissions.findAll(ctx.accountId, (s) => (ws == null || s.workspaceId === ws) && (tax == null || s.taxonomyId === tax));
    return ok(paginate(ctx, all, Assemblers.submissionSummary, { workspaceId: ws, taxonomyId: tax }));
  },
  getSubmission: (ctx, id) => ok(Assemblers.submissionDetail(ctx, getOr404(repos.submissions, ctx, id, 'Submission'))),

  createSubmission: (ctx) => {
    // 1. query parameter identifying the workspace
    if (!ctx.query.has('workspaceId')) throw Errors.missingParam('workspaceId', 'query');
    const wsParam = ctx.query.get('workspaceId');
    if (wsParam.trim() === '') throw Errors.invalid('workspaceId', 'invalid_value', "Query parameter 'workspaceId' must not be blank.");
    // 2. body
    const body = parseJsonBody(ctx);
    for (const f of ['workspace_id', 'taxonomy_id', 'rows']) {
      if (!Object.prototype.hasOwnProperty.call(body, f)) throw Errors.missingParam(f, 'body');
    }
    rejectUnknownFields(body, ['workspace_id', 'taxonomy_id', 'rows']);
    if (typeof body.workspace_id !== 'string' || body.workspace_id.trim() === '') {
      throw Errors.invalid('workspace_id', 'invalid_type', "Field 'workspace_id' must be a non-blank string.", 'workspace_id');
    }
    if (typeof body.taxonomy_id !== 'string' || body.taxonomy_id.trim() === '') {
      throw Errors.invalid('taxonomy_id', 'invalid_type', "Field 'taxonomy_id' must be a non-blank string.", 'taxonomy_id');
    }
    if (!Array.isArray(body.rows)) {
      throw Errors.invalid('rows', 'invalid_type', "Field 'rows' must be an array of objects, each with one member 'data' (object).", 'rows');
    }
    if (body.rows.length === 0) {
      throw Errors.invalid('rows', 'empty_array', "Field 'rows' must contain at least one row.", 'rows');
    }
    body.rows.forEach((row, i) => {
      if (!isPlainObject(row)) {
        throw Errors.invalid('rows', 'invalid_type', `Element rows[${i}] must be an object with one member 'data'.`, `rows[${i}]`);
      }
      if (!Object.prototype.hasOwnProperty.call(row, 'data')) {
        throw Errors.invalid('rows', 'missing_field', `Element rows[${i}] has no member 'data'.`, `rows[${i}].data`);
      }
      for (const k of Object.keys(row)) {
        if (k !== 'data')
          throw Errors.invalid('rows', 'unknown_field', `Unrecognized field '${k}' in rows[${i}]; each row has exactly one member 'data'.`, `rows[${i}].${k}`);
      }
      if (!isPlainObject(row.data)) {
        throw Errors.invalid('rows', 'invalid_type', `Member rows[${i}].data must be a JSON object.`, `rows[${i}].data`);
      }
    });
    // 3. references
    const ws = UUID_RE.test(wsParam) ? repos.workspaces.findById(ctx.accountId, wsParam) : null;
    if (!ws) throw Errors.notFound(`Workspace with id '${wsParam}' was not found.`);
    if (body.workspace_id.toLowerCase() !== ws.id) {
      throw Errors.invalid(
        'workspace_id',
        'workspace_mismatch',
        `Field 'workspace_id' ('${body.workspace_id}') does not match query parameter 'workspaceId' ('${wsParam}').`,
        'workspace_id',
      );
    }
    const tax = UUID_RE.test(body.taxonomy_id) ? repos.taxonomies.findById(ctx.accountId, body.taxonomy_id) : null;
    if (!tax) {
      throw Errors.invalid('taxonomy_id', 'unknown_reference', `Taxonomy '${body.taxonomy_id}' does not exist in this account.`, 'taxonomy_id');
    }
    // 4. plan limits
    if (body.rows.length > Config.maxRowsPerSubmission) {
      throw Errors.planLimit('rows', `A submission may contain at most ${Config.maxRowsPerSubmission} rows on the current plan; got ${body.rows.length}.`);
    }
    const s = repos.submissions.save({
      id: crypto.randomUUID(),
      accountId: ctx.accountId,
      workspaceId: ws.id,
      taxonomyId: tax.id,
      rows: body.rows.map((r) => ({ data: r.data })),
      createdAt: isoNow(),
    });
    const location = `${P}/submissions/${s.id}`;
    return ok(Assemblers.submissionDetail(ctx, s), 201, { Location: ctx.baseUrl + location });
  },

  listApiKeys: (ctx) => ok(paginate(ctx, repos.apiKeys.findAll(ctx.accountId), Assemblers.apiKey)),
  getApiKey: (ctx, id) => ok(Assemblers.apiKey(ctx, getOr404(repos.apiKeys, ctx, id, 'API key'))),

  createApiKey: (ctx) => {
    const body = parseJsonBody(ctx);
    if (!Object.prototype.hasOwnProperty.call(body, 'name')) throw Errors.missingParam('name', 'body');
    rejectUnknownFields(body, ['name']);
    if (typeof body.name !== 'string' || body.name.trim() === '') {
      throw Errors.invalid('name', 'invalid_type', "Field 'name' must be a non-blank string.", 'name');
    }
    if (body.name.length > Config.maxKeyNameLength) {
      throw Errors.invalid('name', 'too_long', `Field 'name' must be at most ${Config.maxKeyNameLength} characters.`, 'name');
    }
    if (repos.apiKeys.findAll(ctx.accountId).length >= Config.maxActiveKeysPerAccount) {
      throw Errors.planLimit(
        'api_keys',
        `The current plan allows at most ${Config.maxActiveKeysPerAccount} active API keys per account. Delete an unused key first.`,
      );
    }
    const secret = Config.keyPrefix + randomSecret(Config.keySecretLength);
    const k = repos.apiKeys.save({
      id: crypto.randomUUID(),
      accountId: ctx.accountId,
      name: body.name,
      hash: sha256(secret),
      createdAt: isoNow(),
      lastUsedAt: null,
    });
    keyHashIndex.set(k.hash, k.id);
    const rep = Assemblers.apiKey(ctx, k);
    return ok({ id: rep.id, name: rep.name, secret, createdAt: rep.createdAt, lastUsedAt: rep.lastUsedAt, _links: rep._links }, 201, {
      Location: ctx.baseUrl + `${P}/api_keys/${k.id}`,
    });
  },

  deleteApiKey: (ctx, id) => {
    const k = getOr404(repos.apiKeys, ctx, id, 'API key');
    keyHashIndex.delete(k.hash);
    repos.apiKeys.delete(k.id);
    return { status: 204, body: null, headers: {} };
  },

  adminOnly: () => {
    throw Errors.forbidden('This endpoint is restricted to account administrators signed in to the web app; API keys cannot access admin-only endpoints.');
  },
};

// ---------------------------------------------------------------------------------------
// Routing ("@RequestMapping")
// ---------------------------------------------------------------------------------------

const ROUTES = [
  ['GET', '/workspaces', Controllers.listWorkspaces],
  ['GET', '/workspaces/{id}', Controllers.getWorkspace],
  ['GET', '/governance_models', Controllers.listGovernanceModels],
  ['GET', '/governance_models/{id}', Controllers.getGovernanceModel],
  ['GET', '/records', Controllers.listRecords],
  ['GET', '/records/{id}', Controllers.getRecord],
  ['GET', '/taxonomies', Controllers.listTaxonomies],
  ['GET', '/taxonomies/{id}', Controllers.getTaxonomy],
  ['GET', '/fields', Controllers.listFields],
  ['GET', '/fields/{id}', Controllers.getField],
  ['GET', '/picklists', Controllers.listPicklists],
  ['GET', '/picklists/{id}', Controllers.getPicklist],
  ['GET', '/submissions', Controllers.listSubmissions],
  ['POST', '/submissions', Controllers.createSubmission],
  ['GET', '/submissions/{id}', Controllers.getSubmission],
  ['GET', '/api_keys', Controllers.listApiKeys],
  ['POST', '/api_keys', Controllers.createApiKey],
  ['GET', '/api_keys/{id}', Controllers.getApiKey],
  ['DELETE', '/api_keys/{id}', Controllers.deleteApiKey],
].map(([method, pattern, handler]) => {
  const re = new RegExp('^' + Config.apiPrefix + pattern.replace('{id}', '([^/]+)') + '$');
  return { method, re, handler };
});

function resolveRoute(method, path) {
  if (path === `${P}/admin` || path.startsWith(`${P}/admin/`))
    return { allowed: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], handler: Controllers.adminOnly, params: [] };
  const allowed = [];
  let found = null;
  for (const r of ROUTES) {
    const m = r.re.exec(path);
    if (!m) continue;
    allowed.push(r.method);
    if (r.method === method || (method === 'HEAD' && r.method === 'GET')) {
      found = {
        handler: r.handler,
        params: m.slice(1).map((s) => {
          try {
            return decodeURIComponent(s);
          } catch {
            return s;
          }
        }),
      };
    }
  }
  if (allowed.includes('GET')) allowed.push('HEAD');
  if (allowed.length) allowed.push('OPTIONS');
  return { allowed, ...(found || {}) };
}

// ---------------------------------------------------------------------------------------
// Security filter chain: authentication + rate limiting
// ---------------------------------------------------------------------------------------

const BEARER_RE = /^Bearer +([^\s]+) *$/i;
const KEY_FORMAT_RE = new RegExp('^' + Config.keyPrefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + `[A-Za-z0-9]{${Config.keySecretLength}}$`);

function authenticate(ctx) {
  const header = ctx.req.headers['authorization'];
  if (header === undefined) {
    const state = perIpLimiter.consume(ctx.clientIp);
    ctx.rateHeaders = rateLimitHeaders(state);
    if (!state.allowed) throw rateLimitException(state);
    throw new ApiException(
      401,
      'authentication_error',
      null,
      "Full authentication is required to access this resource: the 'Authorization' header is missing. Send 'Authorization: Bearer <API_KEY>'.",
      null,
      null,
      { flatAuthShape: true },
    );
  }
  // A header is present: it is judged on its own; it does not spend the per-IP allowance.
  ctx.rateHeaders = rateLimitHeaders(perIpLimiter.peek(ctx.clientIp));
  const m = BEARER_RE.exec(header);
  if (!m || !KEY_FORMAT_RE.test(m[1])) {
    throw new ApiException(401, 'authentication_error', null, `Malformed 'Authorization' header: expected 'Bearer ${Config.keyPrefix}<SECRET>'.`, null, null, {
      flatAuthShape: true,
    });
  }
  const keyId = keyHashIndex.get(sha256(m[1]));
  const key = keyId ? repos.apiKeys.byId.get(keyId) : null;
  if (!key) {
    throw new ApiException(401, 'authentication_error', null, 'The API key is invalid or has been revoked.', null, null);
  }
  const state = perKeyLimiter.consume(key.id);
  ctx.rateHeaders = rateLimitHeaders(state);
  if (!state.allowed) throw rateLimitException(state);
  key.lastUsedAt = isoNow();
  ctx.accountId = key.accountId;
  ctx.apiKey = key;
}

// ---------------------------------------------------------------------------------------
// HTTP layer (DispatcherServlet + GlobalExceptionHandler)
// ---------------------------------------------------------------------------------------

function errorBody(e, ctx) {
  const error = { type: e.type, code: e.code, message: e.message, param: e.param, path: e.path };
  if (e.extra && e.extra.flatAuthShape) {
    // Missing / malformed Authorization header: the security entry point's own shape.
    return { error, status: e.status, timestamp: isoNow(), requestPath: ctx.path, requestId: ctx.requestId };
  }
  return { error };
}

function send(ctx, status, body, headers = {}, contentType = 'application/json') {
  const res = ctx.res;
  const h = {
    'X-Request-Id': ctx.requestId,
    'Cache-Control': 'no-cache, no-store, max-age=0, must-revalidate',
    Pragma: 'no-cache',
    Expires: '0',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    ...(ctx.rateHeaders || {}),
    ...headers,
  };
  let payload = null;
  if (body !== null && body !== undefined) {
    payload = Buffer.from(JSON.stringify(body), 'utf8');
    h['Content-Type'] = contentType;
    h['Content-Length'] = String(payload.length);
  } else if (status !== 204) {
    h['Content-Length'] = '0';
  }
  res.writeHead(status, h);
  if (payload && ctx.method !== 'HEAD') res.end(payload);
  else res.end();
}

function dispatch(ctx) {
  try {
    authenticate(ctx);
    const route = resolveRoute(ctx.method, ctx.path);
    if (ctx.method === 'OPTIONS' && route.allowed.length) {
      return send(ctx, 204, null, { Allow: route.allowed.join(', ') });
    }
    if (!route.handler) {
      if (route.allowed.length) {
        throw new ApiException(
          404,
          'not_found_error',
          null,
          `No handler for ${ctx.method} ${ctx.path}. Supported methods for this path: ${route.allowed.join(', ')}.`,
          null,
          null,
        );
      }
      throw Errors.notFound(`No resource found at ${ctx.path}.`);
    }
    const result = route.handler(ctx, ...route.params);
    const hal = result.body && typeof result.body === 'object' && '_links' in result.body;
    return send(ctx, result.status, result.body, result.headers, hal ? 'application/hal+json' : 'application/json');
  } catch (err) {
    let e = err;
    if (!(e instanceof ApiException)) {
      e = new ApiException(500, 'api_error', null, `An unexpected error occurred while processing request ${ctx.requestId}. Please retry later.`, null, null);
    }
    const headers = { ...(e.extra && e.extra.headers) };
    if (e.status === 401) headers['WWW-Authenticate'] = e.extra && e.extra.flatAuthShape ? 'Bearer realm="api"' : 'Bearer realm="api", error="invalid_token"';
    return send(ctx, e.status, errorBody(e, ctx), headers);
  }
}

const server = http.createServer((req, res) => {
  const incomingId = req.headers['x-request-id'];
  const ctx = {
    req,
    res,
    method: req.method,
    requestId: typeof incomingId === 'string' && /^[\w.:-]{1,128}$/.test(incomingId) ? incomingId : crypto.randomUUID(),
    clientIp: req.socket.remoteAddress || 'unknown',
    baseUrl: `http://${req.headers.host || `${Config.host}:${server.address().port}`}`,
    rateHeaders: null,
    accountId: null,
  };
  let url;
  try {
    url = new URL(req.url, 'http://localhost');
  } catch {
    url = new URL('http://localhost/');
  }
  ctx.path = url.pathname;
  ctx.query = url.searchParams;

  const chunks = [];
  let size = 0;
  ctx.bodyTooLarge = false;
  req.on('data', (c) => {
    size += c.length;
    if (size > Config.maxBodyBytes) ctx.bodyTooLarge = true;
    else chunks.push(c);
  });
  req.on('end', () => {
    ctx.rawBody = ctx.bodyTooLarge ? Buffer.alloc(0) : Buffer.concat(chunks);
    dispatch(ctx);
  });
  req.on('error', () => {
    try {
      res.destroy();
    } catch {
      /* ignore */
    }
  });
});

server.on('clientError', (err, socket) => {
  if (socket.writable) {
    const body = JSON.stringify({ error: { type: 'invalid_request_error', code: 'bad_request', message: 'Malformed HTTP request.', param: null, path: null } });
    socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  } else {
    socket.destroy();
  }
});

const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

server.listen(Config.port, Config.host, () => {
  const { port } = server.address();
  const host = Config.host.includes(':') ? `[${Config.host}]` : Config.host;
  process.stdout.write(`{"url": "http://${host}:${port}", "keys": {"main": "${mainKey}", "other": "${otherKey}"}}\n`);
});
