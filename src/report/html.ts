import { exploredLines } from './explored.js';
import { likelyCauseLines } from '../diagnosis/diagnose.js';
import { FAMILIES, type Family } from '../clauses/catalogue.js';
import { networkLines } from './network.js';
import { clockLine } from './clock.js';
import type { CheckRecord } from '../check/outcome.js';
import type { Exchange } from '../http/exchange.js';
import type { ClauseStatus } from '../verdict/verdict.js';
import { coverageLines } from './baseline.js';
import type { ClauseChange } from './comparison.js';
import { modeHeadline, type ConformanceDocument } from './document.js';
import { HTML_SCRIPT, HTML_STYLE } from './html-assets.js';
import { footprintLine } from './footprint.js';
import { sentence } from './sentence.js';

/** Every status has a label a person reads (the compiler proves none is missing). */
export const STATUS_LABEL: Record<ClauseStatus, string> = {
  pass: 'pass',
  fail: 'FAIL',
  warn: 'warning',
  not_applicable: 'not applicable',
  skipped: 'skipped',
  error: 'suite error',
};

export const FAMILY_TITLE: Record<Family, string> = {
  GEN: 'General',
  RES: 'Resources',
  PAG: 'Pagination',
  AUTH: 'Authentication',
  KEY: 'API keys',
  SUB: 'Submissions',
  ERR: 'Errors',
  RATE: 'Rate limits',
};

const VERDICT_TITLE: Record<ConformanceDocument['verdict'], string> = {
  conformant: 'Conformant',
  'non-conformant': 'Non-conformant',
  inconclusive: 'Inconclusive',
};

const STATUS_ORDER: readonly ClauseStatus[] = ['pass', 'fail', 'warn', 'not_applicable', 'skipped', 'error'];

/**
 * `report.html`: the report a vendor hands to the API owner. One self-contained file (inline
 * style and script, a Content-Security-Policy that forbids every fetch), readable without tools
 * and printable to PDF. Rendered from the already redacted document.
 */
export function renderHtml(doc: ConformanceDocument): string {
  const title = `API v1 conformance: ${VERDICT_TITLE[doc.verdict]}: ${doc.target.baseUrl}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>${esc(title)}</title>
<style>${HTML_STYLE}</style>
</head>
<body>
${banner(doc)}
<main>
${facts(doc)}
${counts(doc)}
${doc.baseline ? baseline(doc.baseline) : ''}
${filters(doc.clauses.some(isProblem))}
${FAMILIES.map((family) => familySection(doc, family)).join('\n')}
${closing(doc)}
</main>
<script>${HTML_SCRIPT}</script>
</body>
</html>
`;
}

function banner(doc: ConformanceDocument): string {
  return `<header id="verdict" class="banner verdict-${doc.verdict}" data-verdict="${doc.verdict}" data-complete="${doc.complete}">
<h1><span class="verdict-word">${VERDICT_TITLE[doc.verdict]}</span>${doc.complete ? '' : ' <span class="incomplete">incomplete run</span>'}</h1>
<p class="mode" id="mode" data-certification="${doc.mode?.certification ?? false}"><strong>${esc(modeHeadline(doc))}</strong></p>
<p class="because">${esc(doc.because)}</p>
<p class="target">API v1 at <strong>${esc(doc.target.baseUrl)}</strong>${doc.target.note ? ` (${esc(doc.target.note)})` : ''}</p>
</header>`;
}

function facts(doc: ConformanceDocument): string {
  const settings = doc.settings as Record<string, unknown>;
  const rows: Array<[string, string]> = [
    ['Target', esc(doc.target.baseUrl)],
    [
      'Profile',
      `${esc(doc.profile.name)} <span class="muted">(${esc(doc.profile.source)})</span><br><code class="hash">sha256 ${esc(doc.profile.sha256 ?? 'unknown: the profile was not read')}</code>`,
    ],
    [
      'Suite',
      `version ${esc(doc.suite.version)}, commit <code>${esc(doc.suite.commit ?? 'unknown')}</code>, clause catalogue ${esc(doc.suite.catalogueVersion)}`,
    ],
    [
      'Run',
      `${esc(doc.startedAt)} to ${esc(doc.endedAt)} (${(doc.durationMs / 1000).toFixed(1)} s), seed <code>${doc.seed}</code>, ${doc.environment.requests} requests`,
    ],
    ['Mode', esc(modeOf(settings))],
    ['Command', `<code>${esc(doc.command.join(' '))}</code>`],
    ...(doc.integrity ? [['Integrity', integrity(doc.integrity)] as [string, string]] : []),
  ];
  return `<section id="facts"><h2>What was run</h2><table class="facts">${rows.map(([k, v]) => `<tr><th scope="row">${k}</th><td>${v}</td></tr>`).join('')}</table>
<details class="profile-content"><summary>Profile content</summary><pre>${esc(JSON.stringify(doc.profile.content, null, 2))}</pre></details></section>`;
}

/** The signature state: what an owner checks with `conformance verify`. */
function integrity(i: NonNullable<ConformanceDocument['integrity']>): string {
  const how = `<code>conformance verify &lt;this folder&gt;${i.signed ? ' --public-key KEY.pub' : ''}</code>`;
  return i.signed
    ? `<span id="signature" data-signed="true">signed (Ed25519)</span>: <code>${esc(i.manifest)}</code> holds the SHA-256 of every report file and every piece of evidence; public key <code class="hash" id="key-fingerprint">${esc(i.publicKeyFingerprint ?? '')}</code>. Check with ${how}.`
    : `<span id="signature" data-signed="false">unsigned</span>: <code>${esc(i.manifest)}</code> holds the SHA-256 of every report file and every piece of evidence, but no signature says who wrote it. Check with ${how}.`;
}

function modeOf(settings: Record<string, unknown>): string {
  const parts: string[] = [];
  if (settings.strict) parts.push('--strict (SHOULD findings fail)');
  if (settings.requireComplete) parts.push('--require-complete');
  if (settings.readOnly) parts.push('--read-only (nothing written on the target)');
  const only = (settings.only as string[] | undefined) ?? [];
  const skip = (settings.skip as string[] | undefined) ?? [];
  if (only.length > 0) parts.push(`only ${only.join(', ')}`);
  if (skip.length > 0) parts.push(`skipping ${skip.join(', ')}`);
  return parts.length > 0 ? parts.join('; ') : 'every clause, SHOULD findings as warnings';
}

function counts(doc: ConformanceDocument): string {
  const row = (label: string, level: string, values: Record<ClauseStatus, number>) =>
    `<tr data-level="${level}"><th scope="row">${label}</th>${STATUS_ORDER.map((s) => `<td class="status-${s}" data-status="${s}">${values[s]}</td>`).join('')}</tr>`;
  return `<section id="counts"><h2>Clauses by level and status</h2>
<table class="counts"><thead><tr><th></th>${STATUS_ORDER.map((s) => `<th scope="col">${STATUS_LABEL[s]}</th>`).join('')}</tr></thead>
<tbody>${row('MUST', 'MUST', doc.counts.MUST)}${row('SHOULD', 'SHOULD', doc.counts.SHOULD)}${row('all', 'all', doc.totals)}</tbody></table></section>`;
}

function baseline(comparison: NonNullable<ConformanceDocument['baseline']>): string {
  const list = (title: string, id: string, changes: readonly ClauseChange[]) =>
    changes.length === 0
      ? ''
      : `<h3>${title} (${changes.length})</h3><ul id="${id}">${changes.map((c) => `<li><a href="#clause-${esc(c.id)}">${esc(c.id)}</a> ${esc(c.before ?? 'absent')} → ${esc(c.after)}${c.reason ? `: ${esc(c.reason)}` : ''}</li>`).join('')}</ul>`;
  return `<section id="baseline"><h2>Compared with the baseline</h2>
<p>${esc(comparison.baseline)} (${esc(comparison.baselineVerdict)}, ${esc(comparison.baselineStartedAt)}): ${comparison.regressions.length === 0 ? 'no regression' : `<strong>${comparison.regressions.length} regression(s)</strong>`}.</p>
${list('Regressions', 'regressions', comparison.regressions)}${list('Fixed', 'fixed', comparison.fixed)}${list('Still failing (known)', 'still-failing', comparison.stillFailing)}${list('New warnings', 'new-warnings', comparison.newWarnings)}
${comparison.notes.map((n) => `<p class="muted">Note: ${esc(n)}</p>`).join('')}
<div id="coverage">${coverageLines(comparison.coverage)
    .map((line) => `<p>${esc(line.trim())}</p>`)
    .join('')}</div></section>`;
}

/** A clause a reader of a failed run opens the page for. */
const PROBLEM_RANK: Partial<Record<ClauseStatus, number>> = { fail: 0, error: 1, warn: 2 };

function isProblem(clause: { readonly status: ClauseStatus }): boolean {
  return PROBLEM_RANK[clause.status] !== undefined;
}

/** The page opens on what failed, when something did: "failed or warned only" is then on. */
function filters(problems: boolean): string {
  return `<form id="filters" class="filters">
<label><input type="checkbox" id="filter-failed"${problems ? ' checked' : ''}> failed or warned only</label>
<label>family <select id="filter-family"><option value="">all</option>${FAMILIES.map((f) => `<option value="${f}">${f}: ${FAMILY_TITLE[f]}</option>`).join('')}</select></label>
<label>level <select id="filter-level"><option value="">all</option><option>MUST</option><option>SHOULD</option></select></label>
<button type="button" id="expand-all">expand problems</button>
<span id="shown" aria-live="polite"></span>
</form>`;
}

function familySection(doc: ConformanceDocument, family: Family): string {
  // Failures first, then errors and warnings, each in the catalogue's order (the sort is stable).
  const rank = (c: { readonly status: ClauseStatus }) => PROBLEM_RANK[c.status] ?? 3;
  const clauses = doc.clauses.filter((c) => c.family === family).sort((a, b) => rank(a) - rank(b));
  if (clauses.length === 0) return '';
  return `<section class="family" data-family="${family}" id="family-${family}"><h2>${family}: ${FAMILY_TITLE[family]}</h2>
<table class="matrix"><thead><tr><th scope="col">clause</th><th scope="col">level</th><th scope="col">status</th><th scope="col">what it says, and what was found</th></tr></thead><tbody>
${clauses.map((c) => clauseRow(doc, c)).join('\n')}
</tbody></table></section>`;
}

function clauseRow(doc: ConformanceDocument, clause: ConformanceDocument['clauses'][number]): string {
  const likely = likelyCauseLines(doc, clause.id);
  return `<tr class="clause" id="clause-${clause.id}" data-id="${clause.id}" data-family="${clause.family}" data-level="${clause.level}" data-status="${clause.status}">
<td class="id">${clause.id}</td><td>${clause.level}</td><td><span class="badge status-${clause.status}">${STATUS_LABEL[clause.status]}</span></td>
<td><div class="summary">${esc(clause.summary)} <span class="muted">(${esc(clause.section)})</span></div>${clause.reason ? `<div class="reason">${esc(clause.reason)}</div>` : ''}
${likely.map((l) => `<div class="likely">${esc(l)}</div>`).join('')}
${clause.checks.map(checkDetails).join('')}</td></tr>`;
}

function checkDetails(check: CheckRecord): string {
  const problem = check.status === 'fail' || check.status === 'warn' || check.status === 'error';
  const body: string[] = [];
  if (check.reason) body.push(`<p class="reason">${esc(check.reason)}</p>`);
  const repro = check.repro;
  if (repro?.counterexample !== undefined || repro?.seed !== undefined) {
    body.push(
      `<p class="property">Property: shrunk input <code>${esc(repro.counterexample ?? '?')}</code>, seed <code>${esc(String(repro.seed ?? '?'))}</code>, path <code>${esc(repro.path ?? '?')}</code></p>`,
    );
  }
  for (const curl of repro?.curl ?? []) {
    body.push(`<div class="curl"><pre>${esc(curl)}</pre><button type="button" class="copy" data-copy="${esc(curl)}">copy curl</button></div>`);
  }
  for (const exchange of check.evidence ?? []) body.push(exchangeBlock(exchange));
  if (check.explored) {
    const [heading, ...sequences] = exploredLines(check.explored);
    body.push(`<p class="explored">${esc(heading!)}</p><ol class="explored">${sequences.map((s) => `<li>${esc(s.trim())}</li>`).join('')}</ol>`);
  }
  if (body.length === 0) body.push('<p class="muted">No evidence recorded: the check passed.</p>');
  return `<details class="check" data-status="${check.status}"${problem ? ' data-problem="true"' : ''}><summary><span class="badge status-${check.status}">${STATUS_LABEL[check.status]}</span> ${esc(check.title)}</summary>${body.join('')}</details>`;
}

function exchangeBlock(exchange: Exchange): string {
  const request = [`${exchange.request.method} ${exchange.request.url}`, ...headerLines(exchange.request.headers)];
  if (exchange.request.body !== undefined) request.push('', exchange.request.body);
  if (exchange.request.truncated) request.push(`… (cut: ${exchange.request.bytes} bytes in all)`);
  let response: string[];
  if (exchange.response) {
    response = [`HTTP ${exchange.response.status}`, ...headerLines(exchange.response.headers), '', pretty(exchange.response.body)];
    if (exchange.response.truncated) response.push(`… (cut: ${exchange.response.bytes} bytes in all)`);
  } else {
    response = [`no response: ${exchange.failure?.kind ?? 'unknown'}: ${exchange.failure?.message ?? ''}`];
  }
  return `<div class="exchange"><div class="muted">${esc(exchange.startedAt)}, ${Math.round(exchange.durationMs)} ms${exchange.check ? `, ${esc(exchange.check)}` : ''}</div><pre class="request">${esc(request.join('\n'))}</pre><pre class="response">${esc(response.join('\n'))}</pre></div>`;
}

function headerLines(headers: Record<string, string>): string[] {
  return Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
}

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function closing(doc: ConformanceDocument): string {
  const created = doc.resources.created;
  const removed = new Set(doc.resources.removed.map((r) => `${r.kind}:${r.id}`));
  const keys = created.filter((r) => r.kind === 'api_key');
  const left = keys.filter((r) => !removed.has(`${r.kind}:${r.id}`));
  const submissions = created.length - keys.length;
  return `<section id="unverifiable"><h2>What no check can verify</h2>
<p>A pass proves what the checks exercised, no more. These statements of the document cannot be verified from outside:</p>
<ul>${doc.unverifiable.map((s) => `<li>${esc(s)}</li>`).join('')}</ul></section>
<section id="resources"><h2>Resources the run created on the target</h2>
${doc.stopped?.kind === 'unfinished' ? `<p><strong>${esc(sentence(footprintLine(doc)))}</strong></p>` : ''}
<p>${keys.length} API key(s) created, ${keys.length - left.length} deleted${left.length > 0 ? `, <strong>${left.length} left behind</strong> (\`conformance cleanup\` deletes them): ${left.map((r) => esc(r.id)).join(', ')}` : ''}.
${submissions > 0 ? `${submissions} submission(s) created: the API offers no way to delete them.` : ''} Every one is listed in <code>conformance.json</code> and <code>ledger.jsonl</code>.</p></section>
<section id="environment"><h2>Run environment</h2>
<ul>${doc.preflight.notes.map((n) => `<li>${esc(n)}</li>`).join('')}
${(doc.learnt ?? []).map((l) => `<li>learnt (not judged): ${esc(l)}</li>`).join('')}
<li>${doc.environment.requests} requests, ${doc.environment.unplanned429} unplanned 429 responses, ${(doc.environment.waitedMs / 1000).toFixed(1)} s waited for rate-limit windows</li>
${
  doc.network
    ? networkLines(doc.network)
        .map((line) => `<li>${esc(line)}</li>`)
        .join('')
    : ''
}
${doc.clock ? `<li>${esc(clockLine(doc.clock))}</li>` : ''}
${doc.suiteFaults.map((f) => `<li class="status-error">suite fault: ${esc(f)}</li>`).join('')}</ul></section>`;
}

/** Escapes text for HTML content and double-quoted attributes. */
export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
