import { STATUS_MARK } from './fleet-status.js';
import { fleetHeadline, type FleetReport } from './fleet-report.js';

/**
 * `fleet.md`: the fleet at a glance for a CI page: one row per deployment, then the clauses on
 * which deployments disagree (each status per deployment), then how many clauses they all agree on.
 */
export function renderFleetMarkdown(report: FleetReport): string {
  const names = report.deployments.map((d) => d.name);
  const lines = [`## API v1 conformance, ${cell(report.name)}: ${fleetHeadline(report)} (exit ${report.exitCode})`, ''];
  lines.push('| deployment | verdict | target | report | signed |', '|---|---|---|---|---|');
  for (const d of report.deployments) {
    lines.push(
      `| ${cell(d.name)} | ${d.verdict}${d.complete || d.problem ? '' : ' (incomplete)'}${d.problem ? `: ${cell(d.problem)}` : ''} | ${d.baseUrl ? `\`${d.baseUrl}\`` : ''} | \`${d.reportDir}\` | ${d.signedBy ? d.signedBy.slice(0, 19) : 'no'} |`,
    );
  }
  lines.push('');
  const disagreeing = report.clauses.filter((c) => c.disagree);
  if (disagreeing.length === 0) {
    lines.push(`The deployments agree on every clause (${report.clauses.length}).`, '');
  } else {
    lines.push(`### Clauses on which deployments disagree (${disagreeing.length})`, '');
    lines.push(`| clause | level | ${names.map(cell).join(' | ')} | differs |`, `|---|---|${names.map(() => ':-:').join('|')}|---|`);
    for (const c of disagreeing)
      lines.push(`| ${c.id} | ${c.level} | ${names.map((n) => STATUS_MARK[c.statuses[n] ?? 'none']).join(' | ')} | ${c.outliers.map(cell).join(', ')} |`);
    lines.push('', `They agree on the other ${report.clauses.length - disagreeing.length} clauses.`, '');
  }
  return `${lines.join('\n')}\n`;
}

/** A table cell keeps to one line and does not break the table. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}
