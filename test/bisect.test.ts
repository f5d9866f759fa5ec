import fc from 'fast-check';
import { expect, test } from 'vitest';
import { bisect, bisectBatches, splitInto, type BatchAnswer } from '../src/check/bisect.js';

// Cases travel many to a submission; a failing one is split until the first case that fails
// alone is found, so the finding is the case a request per case would have met first.

/** A target that refuses any batch holding a bad case, and counts what it would have created. */
function target(bad: (n: number) => boolean, room = Infinity) {
  const sent: number[][] = [];
  let created = 0;
  const send = async (batch: readonly number[]): Promise<BatchAnswer<string>> => {
    if (created >= room) return { outcome: 'unsent' };
    sent.push([...batch]);
    const failing = batch.find(bad);
    if (failing === undefined) {
      created++;
      return { outcome: 'pass' };
    }
    return { outcome: 'fail', failure: `case ${failing} failed` };
  };
  return { send, sent, created: () => created };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

test('bisection finds the one failing row in a batch of a hundred', async () => {
  const t = target((n) => n === 73);
  const located = await bisect(range(100), t.send);
  expect(located).toEqual({ found: 'case', index: 73, failure: 'case 73 failed' });
  // About log2(100) requests, not a hundred: the halves that pass are the only ones created.
  expect(t.sent.length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(100)) + 1);
  expect(t.sent.at(-1)).toEqual([73]);
});

test('bisection finds the first failing case where several fail, as a request per case would', async () => {
  const t = target((n) => n === 41 || n === 12 || n === 90);
  expect(await bisect(range(100), t.send)).toMatchObject({ found: 'case', index: 12 });
});

test('a batch that fails only as a whole is a finding, unless its failure is a size limit', async () => {
  const together = async (batch: readonly number[]): Promise<BatchAnswer<string>> =>
    batch.length > 4 ? { outcome: 'fail', failure: 'too large' } : { outcome: 'pass' };
  expect(await bisect(range(8), together)).toMatchObject({ found: 'batch', from: 0, count: 8, why: 'together' });
  expect(await bisect(range(8), together, { benignTogether: (f) => f === 'too large' })).toBeNull();
});

test('where the cap leaves no room to narrow, the smallest failing batch is the finding', async () => {
  // Room for two: the first batch passes (one created), the second fails (none), and one half passes.
  const t = target((n) => n === 60, 2);
  const located = await bisectBatches([range(50), range(50).map((n) => n + 50)], t.send);
  expect(t.created()).toBe(2);
  expect(located).toMatchObject({ found: 'batch', why: 'cap', failure: 'case 60 failed' });
  if (located?.found !== 'batch') throw new Error('unreachable');
  expect(located.from).toBeLessThanOrEqual(60);
  expect(located.from + located.count).toBeGreaterThan(60);
  expect(located.count).toBeLessThan(50);
});

test('batches split in order, even in weight, never more than asked', () => {
  expect(splitInto(range(10), 3)).toEqual([
    [0, 1, 2, 3],
    [4, 5, 6],
    [7, 8, 9],
  ]);
  expect(splitInto(range(3), 5).length).toBeLessThanOrEqual(5);
  expect(splitInto(range(100), 1)).toEqual([range(100)]);
});

test('fast-check replays the case at index i of a run by the path "i", as the batched property relies on', () => {
  const arbitrary = fc.array(fc.string(), { maxLength: 3 });
  const values: unknown[] = [];
  fc.check(
    fc.property(arbitrary, (v) => void values.push(v)),
    { seed: 5, numRuns: 100 },
  );
  const replayed: unknown[] = [];
  fc.check(
    fc.property(arbitrary, (v) => {
      replayed.push(v);
      return false;
    }),
    { seed: 5, numRuns: 100, path: '57', endOnFailure: true },
  );
  expect(replayed[0]).toEqual(values[57]);
});

test('a batch refused for a plan limit is split and sent again, its rows kept; a case past the limit alone goes unjudged, never a finding', async () => {
  const sent: number[][] = [];
  const unjudged: [number, number, string][] = [];
  const limited = async (batch: readonly number[]): Promise<BatchAnswer<string>> => {
    sent.push([...batch]);
    return batch.length > 3 || batch.includes(5) ? { outcome: 'limit' } : { outcome: 'pass' };
  };
  expect(await bisect(range(8), limited, { unjudged: (from, count, why) => unjudged.push([from, count, why]) })).toBeNull();
  // Every case but the one refused alone was carried by an accepted batch.
  const accepted = sent.filter((b) => b.length <= 3 && !b.includes(5)).flat();
  expect(accepted.sort()).toEqual([0, 1, 2, 3, 4, 6, 7]);
  expect(unjudged).toEqual([[5, 1, 'limit']]);
});

test('where the cap leaves no room for the halves of a batch refused for a plan limit, the rest goes unjudged, never a finding', async () => {
  let created = 0;
  const unjudged: [number, number, string][] = [];
  const send = async (batch: readonly number[]): Promise<BatchAnswer<string>> => {
    if (batch.length > 2) return { outcome: 'limit' };
    if (created >= 1) return { outcome: 'unsent' };
    created++;
    return { outcome: 'pass' };
  };
  expect(await bisect(range(8), send, { unjudged: (from, count, why) => unjudged.push([from, count, why]) })).toBeNull();
  expect(unjudged.reduce((sum, [, count]) => sum + count, 0)).toBe(6);
  expect(unjudged.every(([, , why]) => why === 'cap')).toBe(true);
});

test('past a plan limit the cases are packed in chunks as large as the plan takes, so that the cap carries as many as it can', async () => {
  const accepted: number[] = [];
  const send = async (batch: readonly number[]): Promise<BatchAnswer<string>> => {
    if (batch.length > 36) return { outcome: 'limit' };
    accepted.push(batch.length);
    return { outcome: 'pass' };
  };
  expect(await bisectBatches([range(100), range(100).map((n) => n + 100)], send)).toBeNull();
  expect(accepted.reduce((sum, n) => sum + n, 0)).toBe(200);
  // Halving would carry 25 a submission (8 of them); the search settles near 36 within the first
  // batch, and the second is packed at once without being sent whole.
  expect(accepted.length, JSON.stringify(accepted)).toBeLessThanOrEqual(7);
  expect(Math.max(...accepted)).toBe(36);
});
