import { describe, expect, test } from 'vitest';
import { retrievedResource } from '../suites/support/retrieval.js';

// The document shows no retrieval payload: the resource itself and the resource wrapped are both
// readings a careful implementer may build, and the checks judge the resource in either.

const workspace = { id: 'ws_1', name: 'Main', description: '' };

describe('the resource a retrieval answers', () => {
  test('is the payload itself when the payload carries the id asked for', () => {
    expect(retrievedResource(workspace, 'ws_1')).toBe(workspace);
  });

  test('is the one member carrying the id, in a wrapper with metadata beside it', () => {
    expect(retrievedResource({ data: workspace, meta: { retrieved_at: '2026-01-01T00:00:00Z' } }, 'ws_1')).toBe(workspace);
    expect(retrievedResource({ workspace }, 'ws_1')).toBe(workspace);
  });

  test("is a wrapper's only member even without the id, so that the check names what it lacks", () => {
    const inner = { name: 'Main', description: '' };
    expect(retrievedResource({ workspace: inner }, 'ws_1')).toBe(inner);
  });

  test('is the payload as it is when nothing in it is recognisably the resource', () => {
    const other = { id: 'ws_2', name: 'Other', description: '' };
    expect(retrievedResource(other, 'ws_1')).toBe(other);
    const two = { a: { id: 'ws_1' }, b: { id: 'ws_1' } };
    expect(retrievedResource(two, 'ws_1')).toBe(two);
    expect(retrievedResource([workspace], 'ws_1')).toEqual([workspace]);
    expect(retrievedResource(null, 'ws_1')).toBeNull();
  });
});
