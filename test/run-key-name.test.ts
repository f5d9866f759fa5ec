import { expect, test } from 'vitest';
import { runKeyName, runOfKeyName } from '../src/keys/run-key-name.js';
import { newRunId } from '../src/run/run-id.js';

test("a key's name gives back its run's id and the second the run started", () => {
  const startedAt = new Date('2026-11-23T13:45:07.890Z');
  const runId = newRunId(startedAt);
  const name = runKeyName(runId, 'pool-2');
  expect(name).toBe(`conformance-${runId}-pool-2`);
  expect(runOfKeyName(name)).toEqual({ runId, startedAt: Date.UTC(2026, 10, 23, 13, 45, 7) });
});

test('a name the suite does not give tells no run', () => {
  for (const name of ['production key', 'conformance-no-such-id', 'conformance-20261123T1057-abc123-created', `x${runKeyName(newRunId(), 'init')}`]) {
    expect(runOfKeyName(name)).toBeNull();
  }
});
