import { esc } from '../report/html.js';
import { HTML_STYLE } from '../report/html-assets.js';
import { STATUS_MARK } from './fleet-status.js';
import { fleetHeadline, type FleetClause, type FleetReport } from './fleet-report.js';

/**
 * Verdict cells: dark text on a light tint of the verdict's colour, each pair above WCAG AA's 4.5:1
 * (test/report-html.test.ts measures it in Chromium); the banner's white-on-colour is for large text.
 */
const FLEET_STYLE = `
td.verdict-cell { font-weight: 600; }
td.cell-conformant { background: #dafbe1; color: #0f5323; }
td.cell-non-conformant { background: #ffebe9; color: #82071e; }
td.cell-inconclusive { background: #fff8c5; color: #5c3d00; }
td.verdict-cell .muted { color: inherit; font-weight: 400; }
`;

/**
 * `fleet.html`: deployments × clauses, one self-contained page (inline style, no script, a
 * Content-Security-Policy that forbids every fetch). The clauses on which deployments disagree
 * come first, each naming the deployments away from the rest; each deployment links to its report.
 */
export function renderFleetHtml(report: FleetReport): string {
  const names = report.deployments.map((d) => d.name);
  const disagreeing = report.clauses.filter((c) => c.disagree);
  const agreeing = report.clauses.filter((c) => !c.disagree);
  const head = `<tr><th scope="col">clause</th><th scope="col">level</th>${names.map((n) => `<th scope="col">${esc(n)}</th>`).join('')}<th scope="col">differs</th></tr>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>API v1 conformance: ${esc(report.name)}: ${esc(fleetHeadline(report))}</title>
<style>${HTML_STYLE}${FLEET_STYLE}</style>
</head>
<body>
<header id="verdict" class="banner verdict-${report.verdict}" data-verdict="${report.verdict}" data-exit="${report.exitCode}">
<h1>${esc(report.name)}: <span class="verdict-word">${esc(report.verdict)}</span>${report.complete ? '' : ' <span class="incomplete">incomplete</span>'}</h1>
<p class="because">${report.deployments.length} deployment(s), ${disagreeing.length} clause(s) on which they disagree; ${esc(report.startedAt)} to ${esc(report.endedAt)}.</p>
</header>
<main>
<section id="deployments"><h2>Deployments</h2>
<table class="facts"><thead><tr><th scope="col">deployment</th><th scope="col">verdict</th><th scope="col">target</th><th scope="col">report</th><th scope="col">signature</th></tr></thead><tbody>
${report.deployments
  .map(
    (d) =>
      `<tr class="deployment" data-name="${esc(d.name)}" data-verdict="${d.verdict}"><th scope="row">${esc(d.name)}</th><td class="verdict-cell cell-${d.verdict}">${esc(d.verdict)}${d.complete || d.problem ? '' : ' (incomplete)'}${d.problem ? `<br><span class="muted">${esc(d.problem)}</span>` : ''}</td><td>${esc(d.baseUrl ?? '')}</td><td><a href="${esc(encodeURI(`${d.reportDir}/report.html`))}">${esc(d.reportDir)}/report.html</a></td><td>${d.signedBy ? `signed, <code class="hash">${esc(d.signedBy)}</code>` : 'unsigned'}</td></tr>`,
  )
  .join('\n')}
</tbody></table></section>
<section id="disagreements"><h2>Clauses on which deployments disagree (${disagreeing.length})</h2>
${disagreeing.length === 0 ? '<p>None: every deployment has the same status on every clause.</p>' : `<table class="matrix"><thead>${head}</thead><tbody>${disagreeing.map((c) => row(c, names)).join('\n')}</tbody></table>`}
</section>
<section id="agreements"><h2>Clauses on which they agree (${agreeing.length})</h2>
<details><summary>every clause and its status</summary><table class="matrix"><thead>${head}</thead><tbody>${agreeing.map((c) => row(c, names)).join('\n')}</tbody></table></details>
</section>
</main>
</body>
</html>
`;
}

function row(c: FleetClause, names: readonly string[]): string {
  return `<tr class="clause" data-id="${c.id}" data-disagree="${c.disagree}"><td class="id" title="${esc(c.summary)}">${c.id}</td><td>${c.level}</td>${names
    .map((n) => {
      const s = c.statuses[n] ?? null;
      return `<td data-deployment="${esc(n)}"${s ? ` data-status="${s}"` : ''}><span class="badge status-${s ?? 'skipped'}">${STATUS_MARK[s ?? 'none']}</span></td>`;
    })
    .join('')}<td class="outliers">${c.outliers.map(esc).join(', ')}</td></tr>`;
}
