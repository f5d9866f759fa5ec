import { Buffer } from 'node:buffer';
import type { FastifyRequest } from 'fastify';
import { defineVariant } from '../../variant.js';
import { invalidParam } from '../../../reference/errors.js';
import type { ReferenceState } from '../../../reference/state.js';

/*
 * Where this happens in the field: a Node service on PostgreSQL that keeps each row's `data` in a
 * `jsonb` column and answers the creation with what `INSERT ... RETURNING` read back, as most
 * ORM-backed APIs do. Three things follow from jsonb and are shipped as such:
 * - the rows come back in jsonb's canonical form: the keys of every object ordered by length, then
 *   bytewise (jsonb does not keep key order; node-postgres then parses the text with JSON.parse,
 *   so, as in any JS object, integer-like keys come first); values are unchanged;
 * - a string or key holding U+0000 or an unpaired UTF-16 surrogate cannot be stored (jsonb refuses
 *   `\u0000` and invalid surrogate escapes), so such a row is refused up front with 422 rather
 *   than surfacing as a 500 from the database;
 * - data nested more than 64 levels deep is refused the same way (a deep document otherwise ends
 *   in "stack depth limit exceeded" in the database or a RangeError when serialised).
 *
 * Why it is conformant: the creation response body is not shown (Details and open points), so
 * adding the stored rows to it, in the stored form, is allowed; the status stays 201. The inner
 * keys of `data` are "not fixed by the interface" and JSON objects are unordered (RFC 8259, 4),
 * so key order carries no meaning. Refusing some data objects is a validation failure: 422
 * `invalid_request_error`, `param` `data` as the reference names row data faults, `path` locating
 * the fault with the row's index (Errors table); it is checked only once every check of the
 * reference has passed, so other faults keep their answers. Because not every JSON object is
 * accepted any more, the profile says so truthfully: `submissions.acceptsAnyData` is false. The
 * sample row (`{}` by default) is still accepted. The submission list and its counts are
 * unchanged (its items stay summaries without rows).
 */

const SUBMISSIONS = '/api/v1/submissions';
const BODY_FIELDS = ['workspace_id', 'taxonomy_id', 'rows'] as const;
/** Levels of nesting a row's data may have: the data object itself is level 1. */
const MAX_DEPTH = 64;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The rows of a submission the reference will accept (the checks of reference/routes/submissions.ts,
 * in its order), or null when it answers an error of its own: the storage checks come after all of them.
 */
function acceptedRows(state: ReferenceState, req: FastifyRequest): readonly unknown[] | null {
  const settings = state.profile.submissions;
  const queryParam = settings.workspaceQueryParam ?? 'workspace_id';
  const required = new Set<string>(settings.requiredBodyFields ?? BODY_FIELDS);
  const { workspaces, taxonomies } = req.account.data;
  const queried = (req.query as Record<string, unknown>)[queryParam];
  if (queried === undefined) {
    if (settings.workspaceQueryParamRequired !== false) return null;
  } else if (typeof queried !== 'string' || !workspaces.some((w) => w.id === queried)) {
    return null;
  }
  const body: unknown = req.body;
  if (!isObject(body)) return null;
  for (const field of BODY_FIELDS) {
    if (!(field in body) && required.has(field)) return null;
  }
  if ('workspace_id' in body) {
    const value = body.workspace_id;
    if (typeof value !== 'string' || !workspaces.some((w) => w.id === value)) return null;
    if (typeof queried === 'string' && value !== queried) return null;
  }
  if ('taxonomy_id' in body) {
    const value = body.taxonomy_id;
    if (typeof value !== 'string' || !taxonomies.some((t) => t.id === value)) return null;
  }
  if (!('rows' in body)) return [];
  const rows: unknown = body.rows;
  if (!Array.isArray(rows)) return null;
  return rows.every((row: unknown) => isObject(row) && 'data' in row && isObject(row.data)) ? rows : null;
}

/** A UTF-16 surrogate without its partner: JSON.stringify escapes it, and jsonb refuses the escape. */
function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1); // NaN past the end
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return true;
    }
    if (unit >= 0xdc00 && unit <= 0xdfff) return true;
  }
  return false;
}

/** Why jsonb cannot hold this text, or null when it can. */
function unstorable(text: string): string | null {
  if (text.includes('\u0000')) return 'U+0000';
  if (hasLoneSurrogate(text)) return 'an unpaired UTF-16 surrogate';
  return null;
}

/** `where.key`, or `where["key"]` for a key that is no plain name. */
function member(where: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${where}.${key}` : `${where}[${JSON.stringify(key)}]`;
}

interface Fault {
  readonly where: string;
  readonly code: string;
  readonly message: string;
}

/** The first place in `value` that jsonb cannot store; recursion is bounded by MAX_DEPTH. */
function findFault(value: unknown, where: string, depth: number): Fault | null {
  if (typeof value === 'string') {
    const why = unstorable(value);
    return why ? { where, code: 'unsupported_unicode', message: `${where} contains ${why}, which cannot be stored.` } : null;
  }
  if (typeof value !== 'object' || value === null) return null;
  if (depth > MAX_DEPTH) return { where, code: 'nesting_too_deep', message: `Row data may be nested at most ${MAX_DEPTH} levels deep; ${where} is deeper.` };
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const fault = findFault(item, `${where}[${index}]`, depth + 1);
      if (fault) return fault;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = member(where, key);
    const why = unstorable(key);
    if (why) return { where: at, code: 'unsupported_unicode', message: `A key at ${at} contains ${why}, which cannot be stored.` };
    const fault = findFault(item, at, depth + 1);
    if (fault) return fault;
  }
  return null;
}

/** jsonb's key order: shorter keys first, equal lengths bytewise (UTF-8). */
function jsonbKeyOrder(a: string, b: string): number {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length - y.length || Buffer.compare(x, y);
}

/** A value as it reads back from jsonb through JSON.parse (only after findFault passed: depth bounded). */
function stored(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stored);
  if (isObject(value)) {
    // fromEntries defines own properties, so a key such as "__proto__" stays data, as JSON.parse keeps it.
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => jsonbKeyOrder(a, b))
        .map(([key, item]) => [key, stored(item)]),
    );
  }
  return value;
}

export default defineVariant({
  description:
    'stores row data as PostgreSQL jsonb and answers the creation with the rows read back (keys in jsonb order), refusing data jsonb cannot hold (U+0000, unpaired surrogates, nesting past 64 levels) with 422',
  openPoint: 'submission-response',
  atRisk: ['SUB-1', 'SUB-2', 'SUB-3', 'SUB-5', 'ERR-1', 'ERR-4', 'GEN-3'],
  profile: (reference) => ({ ...reference, submissions: { ...reference.submissions, acceptsAnyData: false } }),
  modify: ({ app, state }) => {
    /** The rows as stored, for the creation response of the request that sent them. */
    const readBack = new WeakMap<FastifyRequest, unknown[]>();
    app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'POST' || req.routeOptions.url !== SUBMISSIONS) return;
      const rows = acceptedRows(state, req);
      if (rows === null) return;
      for (const [index, row] of rows.entries()) {
        const fault = findFault((row as { data: unknown }).data, `rows[${index}].data`, 1);
        // Refused before the reference stores anything; an async hook that answers must return the reply.
        if (fault) return invalidParam(reply, 'data', fault.message, fault.where, fault.code);
      }
      readBack.set(
        req,
        rows.map((row) => ({ data: stored((row as { data: unknown }).data) })),
      );
    });
    app.addHook('onSend', async (req, reply, payload) => {
      const rows = readBack.get(req);
      if (rows === undefined) return payload;
      readBack.delete(req);
      if (reply.statusCode !== 201 || typeof payload !== 'string') return payload;
      const submission = JSON.parse(payload) as Record<string, unknown>;
      return JSON.stringify({ ...submission, rows });
    });
  },
});
