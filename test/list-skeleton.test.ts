import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listSkeleton as scanBytes } from '../src/http/list-skeleton.js';

/** The skeleton of a body sent as this text (UTF-8, as the transport receives it). */
const listSkeleton = (text: string, idField: string | null) => scanBytes(Buffer.from(text), idField);

/** What the skeleton of a parsed body must equal: the envelope, each item object cut to its id. */
function expected(body: unknown, idField: string | null): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    const cut =
      name === 'items' && Array.isArray(value)
        ? value.map((item: unknown) => {
            if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
            return idField !== null && Object.hasOwn(item, idField) ? { [idField]: (item as Record<string, unknown>)[idField] } : {};
          })
        : value;
    Object.defineProperty(out, name, { value: cut, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** JSON.parse of the body as the transport decodes it (a lone surrogate arrives as U+FFFD). */
function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(Buffer.from(text).toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

const item = fc.oneof(
  fc.record({ id: fc.oneof(fc.string(), fc.jsonValue()), data: fc.jsonValue() }, { requiredKeys: [] }),
  fc.dictionary(fc.constantFrom('id', '__proto__', 'i\\u0064', 'data', 'x'), fc.jsonValue()),
  fc.jsonValue(),
);
const envelope = fc.record(
  { items: fc.oneof(fc.array(item, { maxLength: 8 }), fc.jsonValue()), has_more: fc.jsonValue(), total_count: fc.jsonValue(), extra: fc.jsonValue() },
  { requiredKeys: [] },
);
/** A body: an envelope or any JSON, spaced out or not, or its text with one character changed. */
const body = fc
  .tuple(
    fc.oneof(envelope, fc.jsonValue()),
    fc.constantFrom(undefined, 1, '\t'),
    fc.nat(),
    fc.constantFrom('none', 'delete', 'insert', 'replace'),
    fc.constantFrom(...'{}[]",:\\ 0-eE.tfnu\u0001\ud800'),
  )
  .map(([value, space, at, edit, char]) => {
    // A name written with an escape must come out decoded, as JSON.parse decodes it.
    const text = JSON.stringify(value, null, space).replaceAll('"i\\\\u0064"', '"i\\u0064"');
    const i = at % (text.length + 1);
    if (edit === 'delete') return text.slice(0, i) + text.slice(i + 1);
    if (edit === 'insert') return text.slice(0, i) + char + text.slice(i);
    if (edit === 'replace') return text.slice(0, i) + char + text.slice(i + 1);
    return text;
  });

describe('listSkeleton', () => {
  it('answers what JSON.parse answers for an object, cut to the envelope and the item ids, and nothing for what JSON.parse refuses', () => {
    fc.assert(
      fc.property(body, fc.constantFrom('id', null, 'data'), (text, idField) => {
        const skeleton = listSkeleton(text, idField);
        const full = parsed(text);
        if (!full.ok) expect(skeleton).toBeUndefined();
        else expect(skeleton).toStrictEqual(expected(full.value, idField));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads a page of the reference: envelope members whole, items reduced to their id', () => {
    const text = JSON.stringify({ items: [{ id: 'rec_1', data: { a: [1, { b: 2 }] } }, { data: {} }, { id: 7 }], has_more: false, total_count: 3 });
    expect(listSkeleton(text, 'id')).toStrictEqual({ items: [{ id: 'rec_1' }, {}, { id: 7 }], has_more: false, total_count: 3 });
  });

  it('keeps a member named __proto__ as a member, as JSON.parse does', () => {
    const text = '{"__proto__": {"polluted": true}, "items": [{"__proto__": 1, "id": "a"}]}';
    for (const idField of ['id', '__proto__']) expect(listSkeleton(text, idField)).toStrictEqual(expected(JSON.parse(text), idField));
    expect(Object.getPrototypeOf(listSkeleton(text, 'id'))).toBe(Object.prototype);
  });

  it('leaves a body that is not an object to JSON.parse', () => {
    expect(listSkeleton('[1, 2]', 'id')).toBeUndefined();
    expect(listSkeleton('', 'id')).toBeUndefined();
    expect(listSkeleton('{"items": [1,]}', 'id')).toBeUndefined();
  });
});
