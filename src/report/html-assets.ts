/**
 * The style and script inlined in `report.html`: no external asset, so the file reads the same
 * offline, attached to a mail, or years later.
 */

export const HTML_STYLE = `
:root { --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700; --na: #6e7781; --skip: #8250df; --error: #bc4c00; --line: #d0d7de; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; background: #fff; }
main { padding: 0 24px 48px; max-width: 1200px; margin: 0 auto; }
h1 { margin: 0 0 4px; font-size: 28px; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 12px 0 4px; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 4px; padding: 8px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; margin: 4px 0; }
.banner { padding: 20px 24px; color: #fff; }
.banner p { margin: 2px 0; }
.verdict-conformant { background: var(--pass); }
.verdict-non-conformant { background: var(--fail); }
.verdict-inconclusive { background: var(--warn); }
.incomplete { font-size: 14px; font-weight: 600; background: rgba(255,255,255,.25); border-radius: 10px; padding: 2px 10px; vertical-align: middle; }
.muted { color: #656d76; }
.banner .muted { color: inherit; opacity: .85; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid var(--line); }
table.facts th { width: 110px; }
table.counts td, table.counts th { text-align: center; }
table.counts th[scope=row] { text-align: left; }
td.id { font-weight: 600; white-space: nowrap; }
.hash { word-break: break-all; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; font-weight: 600; color: #fff; white-space: nowrap; }
.badge.status-pass { background: var(--pass); } .badge.status-fail { background: var(--fail); } .badge.status-warn { background: var(--warn); }
.badge.status-not_applicable { background: var(--na); } .badge.status-skipped { background: var(--skip); } .badge.status-error { background: var(--error); }
.reason { margin: 2px 0; }
tr[data-status=fail] .reason, details[data-status=fail] > .reason { color: var(--fail); }
tr[data-status=warn] .reason { color: var(--warn); }
details.check { margin: 4px 0; }
details.check > summary { cursor: pointer; }
details.check[open] { border-left: 3px solid var(--line); padding-left: 8px; }
.curl { position: relative; }
.curl pre { padding-right: 90px; }
button.copy { position: absolute; top: 6px; right: 6px; font-size: 12px; }
.filters { position: sticky; top: 0; background: #fff; border-bottom: 1px solid var(--line); padding: 10px 0; margin-top: 20px; display: flex; gap: 16px; align-items: center; flex-wrap: wrap; z-index: 1; }
#shown { color: #656d76; margin-left: auto; }
.hidden { display: none; }
@media print {
  body { font-size: 11px; }
  main { padding: 0; max-width: none; }
  .filters, button.copy, .profile-content { display: none; }
  .banner, .badge { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  tr, details.check, pre { break-inside: avoid; }
  h2 { break-after: avoid; }
  /* A printed report is the whole report, whatever the filters on screen (the page opens on the problems). */
  tr.clause.hidden { display: table-row; }
  section.family.hidden { display: block; }
}
`;

/** Filters (failed only, family, level), the copy button, and open problems when printing. */
export const HTML_SCRIPT = `
(function () {
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.clause'));
  var failed = document.getElementById('filter-failed');
  var family = document.getElementById('filter-family');
  var level = document.getElementById('filter-level');
  var shown = document.getElementById('shown');
  var PROBLEM = { fail: true, warn: true, error: true };
  function apply() {
    var visible = 0;
    rows.forEach(function (row) {
      var show = (!failed.checked || PROBLEM[row.dataset.status]) &&
        (!family.value || row.dataset.family === family.value) &&
        (!level.value || row.dataset.level === level.value);
      row.classList.toggle('hidden', !show);
      if (show) visible++;
    });
    document.querySelectorAll('section.family').forEach(function (section) {
      section.classList.toggle('hidden', !section.querySelector('tr.clause:not(.hidden)'));
    });
    shown.textContent = visible + ' of ' + rows.length + ' clauses shown';
    shown.dataset.visible = String(visible);
  }
  [failed, family, level].forEach(function (el) { el.addEventListener('change', apply); });
  document.getElementById('filters').addEventListener('submit', function (e) { e.preventDefault(); });
  document.getElementById('expand-all').addEventListener('click', function () {
    document.querySelectorAll('details.check[data-problem]').forEach(function (d) { d.open = true; });
  });
  function copied(button, ok) {
    button.textContent = ok ? 'copied' : 'select and copy';
    setTimeout(function () { button.textContent = 'copy curl'; }, 1500);
  }
  function fallbackCopy(text) {
    var area = document.createElement('textarea');
    area.value = text;
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    document.body.removeChild(area);
    return ok;
  }
  document.addEventListener('click', function (e) {
    var button = e.target.closest && e.target.closest('button.copy');
    if (!button) return;
    var text = button.dataset.copy;
    document.body.dataset.lastCopied = text;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { copied(button, true); }, function () { copied(button, fallbackCopy(text)); });
    } else {
      copied(button, fallbackCopy(text));
    }
  });
  // A printed report shows the evidence of every problem, whatever was open on screen.
  var opened = [];
  window.addEventListener('beforeprint', function () {
    opened = [];
    document.querySelectorAll('details.check[data-problem]:not([open])').forEach(function (d) { d.open = true; opened.push(d); });
  });
  window.addEventListener('afterprint', function () { opened.forEach(function (d) { d.open = false; }); });
  apply();
})();
`;
