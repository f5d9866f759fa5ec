import type { Exchange } from '../http/exchange.js';
import type { ConformanceDocument } from './document.js';
import { bodiesOf, HAR_FULL_LOG_LIMIT, HarEntries } from './har-entries.js';

export { HAR_FULL_LOG_LIMIT } from './har-entries.js';

/**
 * `exchanges.har`: the run's exchanges in HAR 1.2, which browser devtools, Insomnia, Postman and
 * Charles open. Every exchange of the run, in the order sent, or past `HAR_FULL_LOG_LIMIT` the
 * exchanges of evidence; each entry's comment names the check and clause that made it. Rendered
 * from the log as `writeReports` hands it (redacted, or in its URLs only where every secret is
 * plain), and redacted whole, like every report. The file's UTF-8 bytes, what
 * `JSON.stringify(har, null, 1)` writes, its entries from `entries` (those rendered ahead,
 * `har-entries.ts`).
 */
export function renderHar(doc: ConformanceDocument, log: readonly Exchange[], entries = new HarEntries()): Uint8Array {
  const bodies = log.reduce((n, e) => n + bodiesOf(e), 0);
  const whole = bodies <= HAR_FULL_LOG_LIMIT;
  const exchanges = whole ? log : evidenceOf(doc, log);
  const har = {
    log: {
      version: '1.2',
      creator: { name: 'api-v1-conformance', version: doc.suite.version },
      pages: [],
      entries: [],
      comment: whole
        ? `every exchange of the run against ${doc.target.baseUrl} (${log.length}), in the order sent`
        : `the exchanges of evidence only (${exchanges.length} of ${log.length}): the run's bodies (${bodies} characters) are past ${HAR_FULL_LOG_LIMIT}`,
    },
  };
  // The skeleton with no entry, its empty list then filled: its first `"entries": []` is the
  // member's (such a text inside a string would have its quotes escaped).
  const skeleton = JSON.stringify(har, null, 1);
  const at = skeleton.indexOf(NO_ENTRIES);
  const head = Buffer.from(`${skeleton.slice(0, at)}"entries": `);
  const tail = Buffer.from(`${skeleton.slice(at + NO_ENTRIES.length)}\n`);
  if (exchanges.length === 0) return Buffer.concat([head, Buffer.from('[]'), tail]);
  const list = exchanges.flatMap((e, i) => [i === 0 ? LIST_OPEN : BETWEEN, entries.bytesOf(e)]);
  return Buffer.concat([head, ...list, LIST_CLOSE, tail]);
}

const NO_ENTRIES = '"entries": []';
const LIST_OPEN = Buffer.from('[\n');
const BETWEEN = Buffer.from(',\n');
const LIST_CLOSE = Buffer.from('\n  ]');

/** The evidence's exchanges from the log (whole, where the report's evidence is cut), or as the report holds them. */
function evidenceOf(doc: ConformanceDocument, log: readonly Exchange[]): Exchange[] {
  const bySeq = new Map(log.filter((e) => e.seq !== undefined).map((e) => [e.seq!, e]));
  const seen = new Set<number>();
  const out: Exchange[] = [];
  for (const clause of doc.clauses) {
    for (const check of clause.checks) {
      for (const e of check.evidence ?? []) {
        if (e.seq !== undefined && seen.has(e.seq)) continue;
        if (e.seq !== undefined) seen.add(e.seq);
        out.push((e.seq !== undefined && bySeq.get(e.seq)) || e);
      }
    }
  }
  return out.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
}
