// What a retrieval answers. The document shows no retrieval payload ("Path and payload of these
// retrievals: not shown"), so a careful implementer may send the resource itself, or wrap it:
// `{"workspace": {...}}`, `{"data": {...}, "meta": {...}}`. Both readings are accepted: the checks
// judge the resource wherever one of these shapes puts it.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The resource in a retrieval's payload: the payload itself when it carries the id asked for;
 * else the one member of the payload that is an object carrying it; else the payload's only
 * member when that is an object (a wrapper whose resource lacks its id, which the check then
 * finds); else the payload as it is, for the check to find what it lacks.
 */
export function retrievedResource(payload: unknown, id: string, idField = 'id'): unknown {
  if (!isObject(payload) || payload[idField] === id) return payload;
  const members = Object.values(payload).filter(isObject);
  const carrying = members.filter((member) => member[idField] === id);
  if (carrying.length === 1) return carrying[0];
  const names = Object.keys(payload);
  if (names.length === 1 && isObject(payload[names[0]!])) return payload[names[0]!];
  return payload;
}
