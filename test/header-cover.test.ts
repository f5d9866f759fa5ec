import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { headerCases } from '../suites/explorer/header-cover.js';

const paths = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `/${prefix}${i}`);

describe("the header catalogue's cover", () => {
  test('sends every entry to a list and to a retrieval, visits every endpoint, and leaves the rest of the product to a pool: together every pair once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 14 }), fc.integer(), (e, l, i, seed) => {
        const entries = paths('entry', e);
        const endpoints = { lists: paths('list', l), items: paths('item', i) };
        const { cover, rest } = headerCases(entries, endpoints, seed);
        const all = [...cover, ...rest].map(({ entry, path }) => `${entry} ${path}`);
        expect(new Set(all).size).toBe(all.length);
        expect(all.length).toBe(e * (l + i));
        if (e === 0) return;
        expect(cover.length).toBe((l > 0 ? Math.max(e, l) : 0) + (i > 0 ? Math.max(e, i) : 0));
        for (const [kind, of] of [
          ['list', l],
          ['item', i],
        ] as const) {
          if (of === 0) continue;
          for (const entry of entries) expect(cover.some((c) => c.entry === entry && c.path.startsWith(`/${kind}`))).toBe(true);
          for (const path of paths(kind, of)) expect(cover.some((c) => c.path === path)).toBe(true);
        }
      }),
    );
  });

  test('is the same for a seed, and another seed turns which endpoint each entry meets', () => {
    const entries = paths('entry', 11);
    const endpoints = { lists: paths('list', 7), items: paths('item', 6) };
    expect(headerCases(entries, endpoints, 5)).toEqual(headerCases(entries, endpoints, 5));
    expect(headerCases(entries, endpoints, 5).cover).not.toEqual(headerCases(entries, endpoints, 6).cover);
  });
});
