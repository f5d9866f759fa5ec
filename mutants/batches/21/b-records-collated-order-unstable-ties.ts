import { defineMutant } from '../../mutant.js';
import { beforeHandler, pathOf } from '../../support.js';
import { sendPage } from '../../../reference/routes/list.js';
import type { RecordSource } from '../../../reference/data.js';

/*
 * How this happens: to give the records list a "human" order, the query gained
 * `ORDER BY title COLLATE utf8mb4_0900_ai_ci` (case- and accent-insensitive) with LIMIT/OFFSET, and
 * nobody added the id as a tiebreaker. Titles repeat, and rows whose titles collate equal come
 * back in whatever order the executor produces; the top-N sort for `LIMIT n OFFSET m` keeps a heap
 * of m + n rows, so the order of equal titles changes with the page. Each page looks fine, but a
 * walk through the pages sees some records twice and never sees others.
 */

const collator = new Intl.Collator('en', { sensitivity: 'base', ignorePunctuation: true });

/** The order the executor happens to give equal titles: differs with the bound of the top-N sort. */
function spill(index: number, bound: number): number {
  return Math.imul(index ^ Math.imul(bound + 1, 0x27d4eb2d), 0x9e3779b1) >>> 0;
}

export default defineMutant({
  description:
    'The records list is ordered by title under a case-insensitive collation with no unique tiebreaker, so records with equal titles swap places between pages and a page walk repeats some records and misses others.',
  breaks: { 'PAG-8': 'warn' },
  collateral: ['PAG-7', 'RES-6'],
  modify: (reference) => {
    const titles = new WeakMap<RecordSource, string[]>();
    const titlesOf = (records: RecordSource): string[] => {
      let known = titles.get(records);
      if (!known) {
        known = Array.from({ length: records.count }, (_, i) => String(records.at(i).data.title ?? ''));
        titles.set(records, known);
      }
      return known;
    };
    beforeHandler(reference, async (req, reply) => {
      if (req.method !== 'GET' || pathOf(req) !== '/api/v1/records') return;
      const records = req.account.data.records;
      return sendPage(reference.state, req, reply, {
        total: records.count,
        slice: (start, end) => {
          const title = titlesOf(records);
          const order = Array.from({ length: records.count }, (_, i) => i);
          order.sort((a, b) => collator.compare(title[a]!, title[b]!) || spill(a, end) - spill(b, end));
          return order.slice(start, end).map((i) => records.at(i));
        },
      });
    });
  },
});
