import { afterEach, describe, expect, test } from 'vitest';
import hasMoreOffByOne from '../mutants/has-more-off-by-one.js';
import pageBoundaryOverlap from '../mutants/page-boundary-overlap.js';
import { seedAccount } from '../reference/data.js';
import { referenceProfile, startReference, type ReferenceOptions, type RunningReference } from '../reference/server.js';
import { HttpClient } from '../src/http/client.js';
import { walk, walkBudget, type PageFetcher } from '../suites/support/walk.js';

// The walk judges pages as they arrive against a real reference (no mocks): a faithful server
// gives no problem at any limit, each fault lands on its clause, and a bounded walk stays in budget.

let running: RunningReference | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

async function records(options: ReferenceOptions = {}): Promise<{ fetch: PageFetcher; requests: () => number }> {
  const base = referenceProfile();
  running = await startReference({ profile: { ...base, limits: { ...base.limits, perKeyPerMinute: 1e9 } }, ...options });
  const client = new HttpClient({
    baseUrl: running.url,
    keys: { main: running.keys.main, other: null },
    extraHeaders: [],
    hooks: { acquire: async () => {}, record: async () => {} },
  });
  let count = 0;
  return {
    fetch: (page, limit) => {
      count++;
      return client.get('/api/v1/records', { query: { page, limit } });
    },
    requests: () => count,
  };
}

describe('pagination walk', () => {
  test('finds no problem on the reference at limits 10000, 100, 7 and 1, and the same ids at each', async () => {
    const { fetch } = await records({ records: 301 });
    const first = await walk(fetch, { limit: 10_000, idField: 'id', budget: 1000 });
    expect(first.ids?.size).toBe(301);
    for (const limit of [100, 7, 1]) {
      const result = await walk(fetch, { limit, idField: 'id', budget: 1000, known: { limit: 10_000, ids: first.ids! } });
      expect(result.problems).toEqual({});
      expect(result.complete).toBe(true);
      expect(result.expectedPages).toBe(Math.ceil(301 / limit));
    }
  });

  test('an empty collection is one empty page with has_more false', async () => {
    const { fetch } = await records({ records: 0 });
    const result = await walk(fetch, { limit: 100, idField: 'id', budget: 10 });
    expect(result).toMatchObject({ total: 0, expectedPages: 1, complete: true, problems: {} });
  });

  test('PAG-6 catches has_more true on an exactly full last page', async () => {
    const { fetch } = await records({ records: 21, modify: hasMoreOffByOne.modify });
    const result = await walk(fetch, { limit: 7, idField: 'id', budget: 100 });
    expect(result.problems['PAG-6']?.reason).toMatch(/has_more is true on page 3 of 3/);
  });

  test('PAG-8 catches an item repeated across a page boundary', async () => {
    const { fetch } = await records({ records: 30, modify: pageBoundaryOverlap.modify });
    const result = await walk(fetch, { limit: 10, idField: 'id', budget: 100 });
    expect(result.problems['PAG-8']?.reason).toMatch(/appears again on page 2/);
    expect(result.problems['PAG-7']?.reason).toBeDefined();
  });

  test('PAG-8 catches a page short of the limit with items after it, though total_count calls it the last page', async () => {
    // A page size cut at 10, silently, where the walk asks for 100 of 25 records.
    const capped: ReferenceOptions['modify'] = (reference) =>
      reference.app.addHook('preHandler', async (req) => {
        const query = req.query as { limit?: string };
        if (req.url.startsWith('/api/v1/records') && Number(query.limit) > 10) query.limit = '10';
      });
    const { fetch } = await records({ records: 25, modify: capped });
    const result = await walk(fetch, { limit: 100, idField: 'id', budget: 100 });
    expect(result.expectedPages).toBe(1);
    expect(result.problems['PAG-8']?.reason).toMatch(/^page 1 holds 10 items, not the full 100, yet page 2 holds 10 more \(total_count 25\)$/);
  });

  test('a walk longer than its budget covers the first pages and the last page only', async () => {
    const { fetch, requests } = await records({ records: 1000 });
    const result = await walk(fetch, { limit: 7, idField: 'id', budget: 6 });
    expect(result.complete).toBe(false);
    expect(requests()).toBe(6);
    expect(result.problems).toEqual({});
  });

  test('has_more true on the last page a bounded walk reads fails PAG-7 too: the walk until has_more is false takes more pages', async () => {
    const { fetch, requests } = await records({ records: 70, modify: hasMoreOffByOne.modify });
    const result = await walk(fetch, { limit: 7, idField: 'id', budget: 6 });
    expect(result.complete).toBe(false);
    expect(requests()).toBe(6);
    expect(result.problems['PAG-6']?.reason).toMatch(/has_more is true on page 10 of 10/);
    expect(result.problems['PAG-7']?.reason).toMatch(/^has_more is true on page 10, the last of the ceil\(70\/7\) = 10 pages total_count gives/);
  });

  test('a total_count that changes during the walk leaves it unjudged, not failed', async () => {
    let served = 0;
    const { fetch } = await records({
      records: 50,
      modify: ({ behaviour }) => {
        behaviour.totalCount = (total) => total + served++;
      },
    });
    const result = await walk(fetch, { limit: 10, idField: 'id', budget: 100 });
    expect(result.unjudged).toMatch(/total_count changed/);
  });

  test('the budget is five seconds of the target rate, at least six requests', () => {
    expect(walkBudget({ perKeyPerMinute: 100, windowSeconds: 1 })).toBe(500);
    expect(walkBudget({ perKeyPerMinute: 100, windowSeconds: 60 })).toBe(8);
    expect(walkBudget({ perKeyPerMinute: 10, windowSeconds: 60 })).toBe(6);
  });
});

describe('the reference records page', () => {
  test('is written as text byte for byte like JSON.stringify of the records', () => {
    const source = seedAccount(7, 'a', 100_000).records;
    for (const [start, end] of [
      [0, 10],
      [99_990, 100_010],
      [31_337, 31_400],
    ] as const) {
      expect(source.sliceJson(start, end)).toBe(JSON.stringify(source.slice(start, end)));
    }
  });
});
