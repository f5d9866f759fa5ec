import { describe, expect, test } from 'vitest';
import { chooseByValueClasses, describeDifference, memberClasses, memberDifferences } from '../suites/support/members.js';

// RES-7's comparison: a difference it names must be one, and none it misses may be one.

describe('memberDifferences', () => {
  test('tells null, an empty string and a missing member apart', () => {
    const listed = { id: 'gm_1', name: 'A', description: null };
    expect(memberDifferences(listed, { id: 'gm_1', name: 'A', description: null })).toEqual([]);
    expect(memberDifferences(listed, { id: 'gm_1', name: 'A', description: '' }).map(describeDifference)).toEqual([
      'description is "" when retrieved but null in the list',
    ]);
    expect(memberDifferences(listed, { id: 'gm_1', name: 'A' }).map(describeDifference)).toEqual([
      'description is missing when retrieved but null in the list',
    ]);
  });

  test('compares types and nested members, every difference named', () => {
    const listed = { id: 'rec_1', data: { amount: 1, tags: [], owner: { name: 'Ada', note: null } } };
    const retrieved = { id: 'rec_1', data: { amount: '1', tags: [null], owner: { name: 'Ada', note: '' }, extra: true } };
    expect(memberDifferences(listed, retrieved).map((d) => d.path)).toEqual(['data.amount', 'data.tags', 'data.owner.note', 'data.extra']);
  });

  test("allows members only the retrieval carries, and another order of an object's members", () => {
    expect(
      memberDifferences({ id: 'a', data: { x: 1, y: [1, { z: 2 }] } }, { data: { y: [1, { z: 2 }], x: 1 }, id: 'a', created_at: '2025-01-01T00:00:00Z' }),
    ).toEqual([]);
  });

  test('a retrieval that is no object differs as a whole', () => {
    expect(memberDifferences({ id: 'a' }, null)).toEqual([{ path: '(the resource)', listed: { id: 'a' }, retrieved: null }]);
  });
});

describe('chooseByValueClasses', () => {
  const items = Array.from({ length: 20 }, (_, n) => ({ id: `f${n}`, picklist_id: n === 13 ? null : `pl_${n}`, tags: n === 7 ? [] : ['a'] }));

  test('takes first the items whose members show a class no other chosen item shows', () => {
    const chosen = chooseByValueClasses(items, 3).map((i) => i.id);
    expect(chosen).toContain('f13');
    expect(chosen).toContain('f7');
    expect(chosen).toHaveLength(3);
  });

  test('spends the rest of the budget spread over the list, deterministically, never twice the same item', () => {
    const chosen = chooseByValueClasses(items, 6).map((i) => i.id);
    expect(new Set(chosen).size).toBe(6);
    expect(chooseByValueClasses(items, 6).map((i) => i.id)).toEqual(chosen);
    expect(chooseByValueClasses(items.slice(0, 4), 6)).toHaveLength(4);
  });

  test('classes name the member path and the kind of value', () => {
    expect([...memberClasses({ description: null, data: { tags: [], name: '' } })]).toEqual([
      'description: null',
      'data: object',
      'data.tags: empty array',
      'data.name: empty string',
    ]);
  });
});
