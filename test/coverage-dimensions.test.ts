import { expect, test } from 'vitest';
import { renderDimensions, spansOf, withoutStale, type StaleReason } from '../scripts/support/coverage-page.js';
import { CLAUSE_SCOPE, GAP_CAUSES, NOT_REACHED, VOCABULARY, type Dimension, type NotReachedTable } from '../src/clauses/dimensions.js';
import type { ClauseId } from '../src/clauses/catalogue.js';
import type { ConformanceDocument } from '../src/report/document.js';

// docs/coverage.md shows each clause × dimension as reached by a check or "not reached" with its
// cause: a value the sentence reaches that no check visits must carry a reason, and a reason must
// stand for such a value (test/coverage-current.test.ts holds the table of the real run).

const noChecks = { clauses: [] } as unknown as ConformanceDocument;

test('a value a clause reaches that no check visits, without a reason, stops the table', () => {
  expect(() => renderDimensions(spansOf(noChecks, []))).toThrow(/KEY-5 endpoints "records\/\{id\}": no check reaches it and NOT_REACHED gives no reason/);
});

test('a reason for a value a check reaches is stale: the script drops it from the data, or the table stops without a hand to drop it', () => {
  const record = { clause: 'RATE-6', key: 'created-key-apart', title: 'exhausting a created key', status: 'pass' };
  const tapped = [{ check: 'RATE-6 exhausting a created key', method: 'GET', path: '/api/v1/workspaces', credential: 'second account', status: 200 }];
  // The real run's report, with the RATE-6 check now visiting what its reason said it could not.
  const table = { 'RATE-6': NOT_REACHED['RATE-6'], 'KEY-3': NOT_REACHED['KEY-3'] } as NotReachedTable;
  const report = { clauses: [{ id: 'RATE-6', checks: [record] }] } as unknown as ConformanceDocument;
  const stale: StaleReason[] = [];
  expect(() => renderDimensions(spansOf(report, tapped), (reason) => stale.push(reason), table)).toThrow(/no check reaches it/);
  expect(stale).toEqual([{ id: 'RATE-6', dimension: 'credentials', value: 'second account' }]);
  expect(JSON.parse(withoutStale(table, stale))).toEqual({ 'KEY-3': NOT_REACHED['KEY-3'] });
  expect(() => renderDimensions(spansOf(report, tapped), undefined, table)).toThrow(
    /RATE-6 credentials "second account": NOT_REACHED gives a reason, but a check reaches it \(stale\)/,
  );
});

test('every reason names a value its clause reaches, in the vocabulary, with a known cause', () => {
  for (const [id, dimensions] of Object.entries(NOT_REACHED) as [ClauseId, Partial<Record<Dimension, Record<string, { cause: string; why: string }>>>][]) {
    for (const [d, reasons] of Object.entries(dimensions) as [Dimension, Record<string, { cause: string; why: string }>][]) {
      for (const [value, reason] of Object.entries(reasons)) {
        expect(VOCABULARY[d] as readonly string[], `${id} ${d}`).toContain(value);
        expect(CLAUSE_SCOPE[id]?.[d] ?? [], `${id} ${d}`).toContain(value);
        expect(Object.keys(GAP_CAUSES)).toContain(reason.cause);
        expect(reason.why.length).toBeGreaterThan(20);
      }
    }
  }
});
