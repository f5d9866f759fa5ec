import { comparisonLines } from './baseline.js';
import { modeHeadline, type ConformanceDocument } from './document.js';
import { footprintLine } from './footprint.js';
import { networkLines } from './network.js';
import { clockLine, clocksApart } from './clock.js';

/** The run's closing lines: the verdict with its counts, the baseline comparison, what the run left on the target, the reports. */
export function verdictLines(doc: ConformanceDocument, files: readonly string[]): string[] {
  const { MUST, SHOULD } = doc.counts;
  const lines = [
    `verdict: ${doc.verdict}${doc.complete ? '' : ' (incomplete)'}: ${doc.because}`,
    `  ${modeHeadline(doc)}`,
    `  MUST   ${MUST.pass} pass, ${MUST.fail} fail, ${MUST.not_applicable} not applicable, ${MUST.skipped} skipped${MUST.error ? `, ${MUST.error} error` : ''}`,
    `  SHOULD ${SHOULD.pass} pass, ${SHOULD.warn} warn${SHOULD.fail ? `, ${SHOULD.fail} fail (--strict)` : ''}, ${SHOULD.not_applicable} not applicable, ${SHOULD.skipped} skipped${SHOULD.error ? `, ${SHOULD.error} error` : ''}`,
  ];
  for (const learnt of doc.learnt ?? []) lines.push(`  learnt: ${learnt}`);
  if (doc.baseline) lines.push(...comparisonLines(doc.baseline));
  lines.push(footprintLine(doc));
  if (doc.network) lines.push(...networkLines(doc.network));
  if (doc.clock && clocksApart(doc.clock)) lines.push(clockLine(doc.clock));
  lines.push(`reports: ${files.join(', ')}`);
  return lines;
}
