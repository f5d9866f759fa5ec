import { describe, expect, test } from 'vitest';
import { meaningful, pairCost, PAIR_DIMENSIONS, shownPairs, type PairRow } from '../suites/catalogues/pair-dimensions.js';
import { coveringArray, drawnBeyond, pairsOf } from '../suites/pairs/covering-array.js';

// Every pair of what the run varies meets in a request of every run (suites/pairs.suite.ts): the
// covering array holds every pair some meaningful row holds, is the same for the same seed, and is
// small enough for the plan (a few dozen requests, where the whole space is thousands).

describe('the covering array of the pairs', () => {
  test('covers every pair a meaningful row shows, in a few dozen rows, each row meaningful', () => {
    const array = coveringArray(PAIR_DIMENSIONS, meaningful, 42, shownPairs, pairCost);
    const shown = (row: PairRow) => shownPairs(row, pairsOf(PAIR_DIMENSIONS, row));
    const covered = new Set(array.rows.flatMap(shown));
    expect(covered.size).toBe(array.pairs);
    expect(array.rows.every(meaningful)).toBe(true);
    expect(array.rows.length).toBeLessThanOrEqual(60);
  });

  test("a row refused for its credential shows the credential's pairs alone: every operation meets every header with a live key", () => {
    const live = (c: string) => c === 'the main key' || c === "the other account's key";
    for (let seed = 1; seed <= 50; seed++) {
      const rows = coveringArray(PAIR_DIMENSIONS, meaningful, seed, shownPairs, pairCost).rows;
      const reads = ['list a collection', 'retrieve an item', 'list the keys', 'retrieve a key', 'an unknown path'];
      const headers = PAIR_DIMENSIONS.header.filter((h) => h !== '—');
      const missing = reads.flatMap((op) =>
        headers.filter((h) => !rows.some((r) => r.operation === op && r.header === h && live(r.credential))).map((h) => `${op} × ${h}`),
      );
      expect(missing, `seed ${seed}`).toEqual([]);
    }
    const refused = {
      operation: 'list the keys',
      credential: 'no key',
      method: 'GET',
      header: 'Accept: */*',
      owner: '—',
      workspace: '—',
      taxonomy: '—',
      rows: '—',
    } as const;
    expect(shownPairs(refused, pairsOf(PAIR_DIMENSIONS, refused))).toEqual([
      'operation=list the keys × credential=no key',
      'credential=no key × method=GET',
      'credential=no key × header=Accept: */*',
      'credential=no key × owner=—',
      'credential=no key × workspace=—',
      'credential=no key × taxonomy=—',
      'credential=no key × rows=—',
    ]);
    // On an unknown path a router's 404 may come before the credential is looked at: the two met, and no more.
    const unknownPath = { ...refused, operation: 'an unknown path' } as const;
    expect(shownPairs(unknownPath, pairsOf(PAIR_DIMENSIONS, unknownPath))).toEqual(['operation=an unknown path × credential=no key']);
  });

  test("of rows that cover as many new pairs, one on another key is taken before the configured key's, the scarcest budget", () => {
    for (const seed of [1, 2, 3]) {
      const onMain = (rows: readonly PairRow[]) => rows.filter((r) => r.credential === 'the main key').length;
      const cheap = coveringArray(PAIR_DIMENSIONS, meaningful, seed, shownPairs, pairCost);
      const plain = coveringArray(PAIR_DIMENSIONS, meaningful, seed, shownPairs);
      expect(cheap.pairs).toBe(plain.pairs);
      expect(onMain(cheap.rows), `seed ${seed}`).toBeLessThan(onMain(plain.rows));
      expect(onMain(cheap.rows)).toBeLessThanOrEqual(12);
    }
  });

  test('the same seed draws the same rows; another seed may draw others, covering the same pairs', () => {
    const a = coveringArray(PAIR_DIMENSIONS, meaningful, 7, shownPairs, pairCost);
    expect(coveringArray(PAIR_DIMENSIONS, meaningful, 7, shownPairs, pairCost).rows).toEqual(a.rows);
    const b = coveringArray(PAIR_DIMENSIONS, meaningful, 8, shownPairs, pairCost);
    expect(b.pairs).toBe(a.pairs);
  });

  test('each of the four classes of a hidden batch is a pair of the array, with a live key where it needs one', () => {
    const rows = coveringArray(PAIR_DIMENSIONS, meaningful, 1, shownPairs, pairCost).rows;
    const live = (c: string) => c === 'the main key' || c === "the other account's key";
    // A credential state × a request header: a condition sent with no key, on a read.
    expect(rows.some((r) => r.credential === 'no key' && r.header === 'If-None-Match: *')).toBe(true);
    // An operation × the other account: a key of another account retrieved by a live key.
    expect(rows.some((r) => r.operation === 'retrieve a key' && r.owner === "another account's" && live(r.credential))).toBe(true);
    // A reference inside a body × the other account: the own workspace under another account's taxonomy.
    expect(rows.some((r) => r.workspace === "the actor's own" && r.taxonomy === "another account's" && live(r.credential))).toBe(true);
    // A collection-valued field × its empty value, where nothing else refuses first.
    expect(
      rows.some((r) => r.rows === 'empty' && r.credential === 'the main key' && r.workspace === "the actor's own" && r.taxonomy === "the actor's own"),
    ).toBe(true);
  });

  test('whatever the seed, HEAD meets every credential on a read the document gives a GET, where the API cannot answer 405 first, nor a refused credential 404', () => {
    // Nor on the unknown path, whose 404 may come before the credential is looked at: a key served
    // on HEAD whatever its state (head-skips-key-lookup) went unseen by AUTH-3 where HEAD met the
    // unknown key only there (seed 1504983311).
    const credentials = PAIR_DIMENSIONS.credential;
    const live = new Set<string>(['the main key', "the other account's key"]);
    const answersFirst = (c: string) => new Set(live.has(c) ? ['retrieve a key'] : ['retrieve a key', 'an unknown path']);
    for (const seed of [...Array.from({ length: 200 }, (_, i) => i + 1), 1504983311]) {
      const rows = coveringArray(PAIR_DIMENSIONS, meaningful, seed, shownPairs, pairCost).rows;
      const missing = credentials.filter((c) => !rows.some((r) => r.method === 'HEAD' && r.credential === c && !answersFirst(c).has(r.operation)));
      expect(missing, `seed ${seed}`).toEqual([]);
    }
  });

  test('pairs no meaningful row holds are named, not silently dropped', () => {
    const array = coveringArray(PAIR_DIMENSIONS, meaningful, 1, shownPairs, pairCost);
    expect(array.meaningless).toContain("credential=no key × owner=another account's");
    expect(array.meaningless).toContain('operation=list a collection × rows=empty');
    expect(array.meaningless).toContain('operation=retrieve a key × method=HEAD');
  });
});

describe('rows drawn beyond the pairs', () => {
  test('are meaningful rows the array does not hold, as many as asked, the same for the same seed', () => {
    const array = coveringArray(PAIR_DIMENSIONS, meaningful, 3, shownPairs, pairCost);
    const drawn = drawnBeyond(PAIR_DIMENSIONS, meaningful, array.rows, 12, 3);
    expect(drawn).toHaveLength(12);
    expect(drawn.every(meaningful)).toBe(true);
    const key = (row: object) => JSON.stringify(row);
    const inArray = new Set(array.rows.map(key));
    expect(drawn.filter((row) => inArray.has(key(row)))).toEqual([]);
    expect(new Set(drawn.map(key)).size).toBe(12);
    expect(drawnBeyond(PAIR_DIMENSIONS, meaningful, array.rows, 12, 3)).toEqual(drawn);
    // The draw has a stream of its own: the array is the same whether rows are drawn beyond it or not.
    expect(coveringArray(PAIR_DIMENSIONS, meaningful, 3, shownPairs, pairCost).rows).toEqual(array.rows);
  });

  test('none at a budget of none, and never more than the space holds', () => {
    const array = coveringArray(PAIR_DIMENSIONS, meaningful, 3, shownPairs, pairCost);
    expect(drawnBeyond(PAIR_DIMENSIONS, meaningful, array.rows, 0, 3)).toEqual([]);
    const small = { a: ['1', '2'], b: ['x', 'y'] } as const;
    const all = coveringArray(small, () => true, 1);
    expect(drawnBeyond(small, () => true, all.rows, 10, 1)).toEqual([]);
  });
});
