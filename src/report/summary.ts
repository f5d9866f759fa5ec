import { exploredLine, exploredOf } from './explored.js';
import type { ClauseStatus } from '../verdict/verdict.js';
import { coverageLines } from './baseline.js';
import type { ClauseChange } from './comparison.js';
import { modeHeadline, type ConformanceDocument } from './document.js';
import { footprintLine } from './footprint.js';
import { networkLines } from './network.js';
import { clockLine } from './clock.js';
import { diagnosisLine } from '../diagnosis/diagnose.js';
import { sentence } from './sentence.js';

const VERDICT_MARK: Record<ConformanceDocument['verdict'], string> = {
  conformant: '✅',
  'non-conformant': '❌',
  inconclusive: '⚠️',
};

const COLUMNS: ReadonlyArray<[ClauseStatus, string]> = [
  ['pass', 'pass'],
  ['fail', 'fail'],
  ['warn', 'warn'],
  ['not_applicable', 'n/a'],
  ['skipped', 'skipped'],
  ['error', 'error'],
];

/** Failed clauses listed in full up to this many; a CI page is read at a glance. */
const LISTED = 25;

/**
 * `summary.md`: a short table for a CI page (GitHub's step summary, a GitLab job's artifacts).
 * With a baseline, it leads with regressions, the only findings that fail the gate.
 */
export function renderSummary(doc: ConformanceDocument, reportFiles: readonly string[] = []): string {
  const lines: string[] = [];
  lines.push(`## API v1 conformance: ${VERDICT_MARK[doc.verdict]} ${doc.verdict}${doc.complete ? '' : ' (incomplete)'}`);
  lines.push('');
  lines.push(`**${cell(modeHeadline(doc))}**`);
  lines.push('');
  lines.push(sentence(cell(doc.because)));
  lines.push('');
  lines.push(sentence(cell(footprintLine(doc))));
  lines.push('');
  if (doc.network) lines.push(...networkLines(doc.network).map((line) => sentence(cell(line))), '');
  if (doc.clock) lines.push(sentence(cell(clockLine(doc.clock))), '');
  const explored = exploredOf(doc);
  if (explored) lines.push(sentence(cell(exploredLine(explored))), '');
  lines.push(
    `Target \`${doc.target.baseUrl}\`${doc.target.embedded ? ' (embedded reference)' : ''} · profile \`${doc.profile.name}\` · suite ${doc.suite.version}` +
      `${doc.suite.commit ? ` (${doc.suite.commit.slice(0, 10)})` : ''} · seed \`${doc.seed}\` · ${(doc.durationMs / 1000).toFixed(1)} s${plannedText(doc)}`,
  );
  lines.push('');
  if (doc.baseline) lines.push(...baselineLines(doc.baseline), '');
  lines.push(`| level | ${COLUMNS.map(([, label]) => label).join(' | ')} |`);
  lines.push(`|---|${COLUMNS.map(() => '--:').join('|')}|`);
  for (const level of ['MUST', 'SHOULD'] as const) lines.push(`| ${level} | ${COLUMNS.map(([s]) => doc.counts[level][s]).join(' | ')} |`);
  lines.push('');
  const problems = doc.clauses.filter((c) => c.status === 'fail' || c.status === 'warn' || c.status === 'error');
  if (problems.length > 0) {
    lines.push('| clause | level | status | reason |', '|---|---|---|---|');
    for (const c of problems.slice(0, LISTED)) lines.push(`| ${c.id} | ${c.level} | ${c.status} | ${cell(c.reason ?? '')} |`);
    if (problems.length > LISTED) lines.push(`| … | | | ${problems.length - LISTED} more in conformance.json |`);
    lines.push('');
  }
  if (doc.diagnosis && doc.diagnosis.length > 0) {
    lines.push(
      'Likely causes, from the known defects (advice, not a verdict):',
      '',
      ...doc.diagnosis.slice(0, LISTED).map((d) => `- ${cell(diagnosisLine(d))}`),
      '',
    );
  }
  if (doc.learnt) lines.push('Learnt from the deployment (the document leaves it open; not judged):', '', ...doc.learnt.map((l) => `- ${cell(l)}`), '');
  if (reportFiles.length > 0) lines.push(`Reports: ${reportFiles.map((f) => `\`${f}\``).join(', ')}`, '');
  return `${lines.join('\n')}\n`;
}

function baselineLines(comparison: NonNullable<ConformanceDocument['baseline']>): string[] {
  const out = [
    comparison.regressions.length === 0
      ? `**No regression** against the baseline (${comparison.baselineVerdict}, ${comparison.baselineStartedAt}).`
      : `**${comparison.regressions.length} regression(s)** against the baseline (${comparison.baselineVerdict}, ${comparison.baselineStartedAt}).`,
  ];
  const list = (title: string, changes: readonly ClauseChange[]) => {
    if (changes.length > 0) out.push(`- ${title}: ${changes.map((c) => `${c.id} (${c.before ?? 'absent'} → ${c.after})`).join(', ')}`);
  };
  list('regressions', comparison.regressions);
  list('fixed', comparison.fixed);
  list('still failing (known)', comparison.stillFailing);
  list('new warnings', comparison.newWarnings);
  for (const note of comparison.notes) out.push(`- note: ${note}`);
  out.push(...coverageLines(comparison.coverage).map((line) => (line.startsWith('  ') ? `  -${line.slice(1)}` : `- ${line}`)));
  return out;
}

/** A table cell keeps to one line and does not break the table. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

/** " (planned 62 s)": the wall time the run's schedule predicted, beside the time it took. */
function plannedText(doc: ConformanceDocument): string {
  const schedule = doc.environment.schedule;
  return schedule ? ` (planned ${Math.round(schedule.plannedMs / 1000)} s)` : '';
}
