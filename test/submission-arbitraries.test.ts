import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { INVALID_SUBMISSION_KINDS, invalidSubmission } from '../suites/arbitraries/invalidSubmission.js';
import { BOUNDARY_ROWS, fakersReady, ROW_DATA_BOUNDS, rowData } from '../suites/arbitraries/rowData.js';

// Generated rows speak in seventeen locales, loaded apart from the arbitrary's module.
beforeAll(fakersReady);

// The generators behind SUB-2, SUB-3 and SUB-5: what they produce must be what the checks claim,
// or a finding would blame the target for the generator's mistake.

const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
const base = { workspaceId: 'ws_1', taxonomyId: 'tx_1', data: { conformance_run: 'run' } };

describe('rowData', () => {
  test('generates JSON objects that survive a JSON round trip unchanged', () => {
    fc.assert(
      fc.property(rowData(), (data) => {
        expect(isObject(data)).toBe(true);
        expect(JSON.parse(JSON.stringify(data))).toEqual(data);
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  test('generates the same rows for the same seed, so that a failure replays', () => {
    const a = fc.sample(rowData(), { seed: 42, numRuns: 30 });
    const b = fc.sample(rowData(), { seed: 42, numRuns: 30 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  test('covers empty objects, text outside the BMP, right-to-left scripts, deep nesting and long strings', () => {
    const texts = fc.sample(rowData(), { seed: 1, numRuns: 400 }).map((data) => JSON.stringify(data));
    expect(texts).toContain('{}');
    expect(texts.some((s) => /[\u{10000}-\u{10FFFF}]/u.test(s))).toBe(true);
    expect(texts.some((s) => /[\u0590-\u06FF]/.test(s))).toBe(true);
    expect(texts.some((s) => /(\{"level":\d+,"value":\[){8}/.test(s))).toBe(true);
    expect(texts.some((s) => s.length > 2000)).toBe(true);
  });

  test('never produces a lone surrogate, which is not text', () => {
    fc.assert(
      fc.property(rowData(), (data) => {
        expect(JSON.stringify(data).match(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/)).toBeNull();
      }),
      { numRuns: 300, seed: 11 },
    );
  });
});

describe('BOUNDARY_ROWS', () => {
  const texts = BOUNDARY_ROWS.map(({ rows }) => JSON.stringify(rows));
  const depth = (value: unknown): number => (typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depth)) : 0);
  const strings = (value: unknown): string[] =>
    typeof value === 'string' ? [value] : typeof value === 'object' && value !== null ? Object.values(value).flatMap(strings) : [];

  test('are rows of JSON objects that survive a JSON round trip, with no lone surrogate', () => {
    for (const { rows } of BOUNDARY_ROWS) {
      expect(rows.length).toBeGreaterThan(0);
      for (const data of rows) expect(isObject(data)).toBe(true);
      expect(JSON.parse(JSON.stringify(rows))).toEqual(rows);
    }
    for (const text of texts) expect(text.match(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/)).toBeNull();
  });

  test('reach exactly the bounds of rowData: its deepest member and its longest string', () => {
    const rows = BOUNDARY_ROWS.flatMap((b) => b.rows);
    // The deep member sits in data: one level more than the member itself.
    expect(Math.max(...rows.map(depth))).toBe(ROW_DATA_BOUNDS.maxDepth + 1);
    expect(Math.max(...rows.flatMap(strings).map((s) => s.length))).toBe(ROW_DATA_BOUNDS.maxStringLength);
    const generated = fc.sample(rowData(), { seed: 1, numRuns: 400 });
    expect(Math.max(...generated.map(depth))).toBeLessThanOrEqual(ROW_DATA_BOUNDS.maxDepth + 1);
    expect(Math.max(...generated.flatMap(strings).map((s) => s.length))).toBeLessThanOrEqual(ROW_DATA_BOUNDS.maxStringLength);
  });

  test('hold empty data objects alone, together and beside filled ones, and empty values inside data', () => {
    expect(texts).toContain('[{}]');
    expect(texts).toContain('[{},{},{}]');
    expect(BOUNDARY_ROWS.some(({ rows }) => rows.some((d) => Object.keys(d).length === 0) && rows.some((d) => Object.keys(d).length > 0))).toBe(true);
    expect(texts.some((s) => s.includes('[]') && s.includes('{}'))).toBe(true);
    expect(texts.some((s) => s.includes('""') && s.includes('null') && s.includes('"":'))).toBe(true);
  });
});

describe('invalidSubmission', () => {
  test.each(INVALID_SUBMISSION_KINDS)('%s bodies carry exactly the fault they describe', (kind) => {
    fc.assert(
      fc.property(invalidSubmission(base, [kind]), (input) => {
        const body = input.body as { workspace_id: unknown; taxonomy_id: unknown; rows: unknown };
        expect(input.kind).toBe(kind);
        const rows = body.rows as unknown[];
        const faultyRows = Array.isArray(rows)
          ? rows.filter((row) => !isObject(row) || !('data' in (row as object)) || !isObject((row as { data: unknown }).data))
          : [];
        switch (kind) {
          case 'rows-not-array':
            expect(Array.isArray(body.rows)).toBe(false);
            expect(body.rows).not.toBeNull();
            break;
          case 'workspace-id-wrong-type':
          case 'taxonomy-id-wrong-type': {
            const member = kind === 'workspace-id-wrong-type' ? body.workspace_id : body.taxonomy_id;
            expect(typeof member).not.toBe('string');
            expect(member).not.toBeNull();
            expect(faultyRows).toEqual([]);
            break;
          }
          default:
            // One faulty row, at the index the input names; every other row is valid.
            expect(faultyRows).toHaveLength(1);
            expect(rows.indexOf(faultyRows[0])).toBe(input.rowIndex);
        }
        if (kind !== 'workspace-id-wrong-type') expect(body.workspace_id).toBe('ws_1');
        if (kind !== 'taxonomy-id-wrong-type') expect(body.taxonomy_id).toBe('tx_1');
      }),
      { numRuns: 200, seed: 3 },
    );
  });

  test('places row faults at every index, not only the first', () => {
    const indexes = new Set(fc.sample(invalidSubmission(base, ['data-not-object']), { seed: 5, numRuns: 200 }).map((input) => input.rowIndex));
    expect([...indexes].sort()).toEqual([0, 1, 2, 3, 4]);
  });

  test('keeps valid rows to the sample row exactly, unless any data object is accepted', () => {
    const validRows = (input: { body: Record<string, unknown>; rowIndex: number | null }) =>
      (input.body.rows as { data: unknown }[]).filter((_, index) => index !== input.rowIndex).map((row) => row.data);
    for (const input of fc.sample(invalidSubmission(base, ['data-not-object']), { seed: 7, numRuns: 100 })) {
      for (const data of validRows(input)) expect(data).toEqual(base.data);
    }
    const numbered = fc.sample(invalidSubmission({ ...base, anyData: true }, ['data-not-object']), { seed: 7, numRuns: 100 }).flatMap(validRows);
    expect(numbered.some((data) => 'seq' in (data as object))).toBe(true);
  });

  test('allows 400 only for a row without data', () => {
    for (const input of fc.sample(invalidSubmission(base), { seed: 9, numRuns: 300 })) {
      expect(input.statuses).toEqual(input.kind === 'data-missing' ? [400, 422] : [422]);
    }
  });
});
