import { defineVariant } from '../../variant.js';
import { isEnvelope, itemPrefix, pathOf } from '../../../mutants/support.js';

/*
 * Where this happens in the field: a service on PostgreSQL whose record payload is a `jsonb` column
 * and whose single-resource reads come from a read-through cache (Redis) filled by
 * `SELECT to_jsonb(t) FROM t WHERE id = $1`: one round trip, no ORM hydration, the cached text served
 * as is. PostgreSQL stores jsonb objects with their keys sorted, shorter keys first and keys of equal
 * length by their bytes, and every read gives them back in that order, whatever order they were
 * written in. List pages go through the ORM serializer, which writes a row's columns in their
 * declared order, but the `data` column it reads is jsonb and keeps the normalised order.
 * Here: a retrieval (workspace, governance model, record, taxonomy, field, picklist) answers with
 * its members, at every depth, in jsonb order (a record: id, data, status, service_id; its data:
 * city, tags, owner, title, amount, recorded_at); the records list keeps each item's declared member
 * order (id, status, service_id, data) with `data` in jsonb order. Names and values are untouched.
 *
 * Why it is conformant: a JSON object is an unordered collection of name/value pairs (RFC 8259,
 * section 4); the document lists each resource's fields and types (Resources and their fields),
 * never their order, and leaves the retrieval payload "not shown" (Details and open points). A
 * retrieved resource carries exactly the fields and values of its list item; only the order of the
 * members in the text differs. Bodies stay JSON of the same length and media type.
 * Reading taken: "the same fields and values" compares JSON values, not their text.
 */

/** PostgreSQL's jsonb key order: shorter (in UTF-8 bytes) first, then bytewise. */
export function jsonbKeyOrder(a: string, b: string): number {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length - right.length || Buffer.compare(left, right);
}

/** The JSON text of a value with every object's members in jsonb order (written by hand: V8 would put integer-like names first). */
export function jsonbText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((element: unknown) => jsonbText(element)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const object = value as Record<string, unknown>;
    const members = Object.keys(object)
      .sort(jsonbKeyOrder)
      .map((name) => `${JSON.stringify(name)}:${jsonbText(object[name])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** An object's members in their own order, `data` (the jsonb column) in jsonb order. */
function rowText(row: unknown): string {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return JSON.stringify(row) ?? 'null';
  const object = row as Record<string, unknown>;
  const members = Object.keys(object).map((name) => `${JSON.stringify(name)}:${name === 'data' ? jsonbText(object[name]) : JSON.stringify(object[name])}`);
  return `{${members.join(',')}}`;
}

const RETRIEVALS = ['workspace', 'governanceModel', 'record', 'taxonomy', 'field', 'picklist'] as const;
const RECORDS_LIST = '/api/v1/records';

export default defineVariant({
  description:
    'serves retrievals as PostgreSQL to_jsonb text (members sorted shortest-name first, then bytewise) and record data from a jsonb column in that order; names and values unchanged',
  openPoint: 'retrieval-payloads',
  atRisk: ['RES-3', 'RES-4', 'RES-7', 'GEN-1', 'PAG-1'],
  modify: ({ app, state }) => {
    const prefixes = RETRIEVALS.map((name) => itemPrefix(state.profile.paths[name])).filter((prefix): prefix is string => prefix !== null);
    const isRetrieval = (path: string): boolean =>
      prefixes.some((prefix) => path.startsWith(prefix) && path.length > prefix.length && !path.slice(prefix.length).includes('/'));
    app.addHook('onSend', async (req, reply, payload) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      if (!String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
      const path = pathOf(req);
      const retrieval = isRetrieval(path);
      if (!retrieval && path !== RECORDS_LIST) return payload;
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (retrieval) return jsonbText(body);
      if (!isEnvelope(body)) return payload;
      const items: unknown[] = body.items;
      const envelope = body as unknown as Record<string, unknown>;
      const members = Object.keys(envelope).map(
        (name) => `${JSON.stringify(name)}:${name === 'items' ? `[${items.map((item) => rowText(item)).join(',')}]` : JSON.stringify(envelope[name])}`,
      );
      return `{${members.join(',')}}`;
    });
  },
});
