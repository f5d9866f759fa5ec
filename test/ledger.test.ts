import { describe, expect, test } from 'vitest';
import { outstandingOf, UNKNOWN_ID, type LedgerEntry } from '../src/broker/ledger.js';

const base = { kind: 'api_key', runId: 'r1', baseUrl: 'http://t', at: '2026-01-01T00:00:00Z' } as const;
const entry = (event: LedgerEntry['event'], id: string, name: string): LedgerEntry => ({ ...base, event, id, name });

describe('ledger: what is still on the target', () => {
  test('a created key is outstanding until its deletion is recorded', () => {
    const created = entry('created', 'k1', 'conformance-a');
    expect(outstandingOf([entry('creating', UNKNOWN_ID, 'conformance-a'), created], 'api_key')).toEqual([created]);
    expect(outstandingOf([created, entry('deleted', 'k1', 'conformance-a')], 'api_key')).toEqual([]);
  });

  test('an announced creation whose answer never reached the ledger is outstanding, by name', () => {
    const announced = entry('creating', UNKNOWN_ID, 'conformance-b');
    expect(outstandingOf([announced], 'api_key')).toEqual([announced]);
    expect(outstandingOf([announced, entry('not_created', UNKNOWN_ID, 'conformance-b')], 'api_key')).toEqual([]);
  });

  test('a deletion of one run does not settle a key of the same id in another', () => {
    const created = entry('created', 'k1', 'conformance-c');
    expect(outstandingOf([created, { ...entry('deleted', 'k1', 'conformance-c'), runId: 'r2' }], 'api_key')).toEqual([created]);
  });

  test("a second key asked for under a live key's name is outstanding until its own answer, not settled by the first's", () => {
    const second = entry('creating', UNKNOWN_ID, 'conformance-d');
    const first = [entry('creating', UNKNOWN_ID, 'conformance-d'), entry('created', 'k1', 'conformance-d')];
    expect(outstandingOf([...first, second], 'api_key')).toEqual([first[1], second]);
    expect(outstandingOf([...first, second, entry('deleted', 'k1', 'conformance-d')], 'api_key')).toEqual([second]);
    expect(outstandingOf([...first, second, entry('created', 'k2', 'conformance-d')], 'api_key')).toEqual([first[1], entry('created', 'k2', 'conformance-d')]);
  });
});
