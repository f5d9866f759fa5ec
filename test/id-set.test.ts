import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { IdSet } from '../suites/support/id-set.js';

/** Any UTF-16 string, lone surrogates included; short, so that repeats are common. */
const anyText = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 6 }).map((units) => String.fromCharCode(...units));

describe('IdSet', () => {
  it('answers membership and size exactly as a Set of the same strings does', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(anyText, fc.constantFrom('a', 'rec_1', '\ud800', 'é', '')), { maxLength: 200 }), fc.array(anyText), (added, probed) => {
        const ids = new IdSet();
        const plain = new Set<string>();
        const fresh = added.map((id) => ids.add(id));
        const plainFresh = added.map((id) => plain.size < plain.add(id).size);
        expect(fresh).toEqual(plainFresh);
        expect(ids.size).toBe(plain.size);
        const probes = [...added, ...probed];
        expect(probes.map((id) => ids.has(id))).toEqual(probes.map((id) => plain.has(id)));
        expect([...ids].sort()).toEqual([...plain].sort());
      }),
    );
  });

  it('keeps a hundred thousand ids through its growth and tells each repeat', () => {
    const ids = new IdSet();
    let added = 0;
    for (let n = 0; n < 100_000; n++) if (ids.add(`rec_${n.toString(36)}`)) added++;
    expect(added).toBe(100_000);
    expect(ids.add('rec_0')).toBe(false);
    expect(ids.add(`rec_${(99_999).toString(36)}`)).toBe(false);
    expect(ids.has('rec_-1')).toBe(false);
    expect(ids.size).toBe(100_000);
    expect([...ids].at(-1)).toBe(`rec_${(99_999).toString(36)}`);
  });
});
