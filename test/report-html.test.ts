import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ConformanceDocument } from '../src/report/document.js';
import { renderFleetHtml } from '../src/fleet/fleet-html.js';
import { renderFleetMarkdown } from '../src/fleet/fleet-markdown.js';
import type { FleetDeployment, FleetReport } from '../src/fleet/fleet-report.js';
import { readJson, runConformance, scratch, targetEnv, withMutants, withReference } from './support/commands.js';

// report.html in a real browser: Debian's chromium, which .ci/run installs when missing.
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// In CI a missing browser fails the test; on a developer's machine it is skipped with this reason.
const MISSING = existsSync(CHROMIUM) ? null : `${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`;
const SKIP = MISSING !== null && !process.env.CI;

let browser: Browser;
let page: Page;
let report: ConformanceDocument;
let reportDir: string;
const requests: string[] = [];

beforeAll(async () => {
  if (SKIP) return;
  if (MISSING) throw new Error(MISSING);
  await withReference(withMutants('workspace-description-null', 'version-prefix-ignored'), async (target) => {
    const cwd = scratch();
    reportDir = join(cwd, 'reports');
    const profile = join(cwd, 'profile.json');
    writeFileSync(profile, JSON.stringify(target.profile));
    const run = await runConformance(['--profile', profile, '--report-dir', reportDir, '--only', 'GEN,RES'], targetEnv(target), cwd);
    expect(run.exitCode, run.stderr).toBe(1);
  });
  report = readJson<ConformanceDocument>(join(reportDir, 'conformance.json'));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(pathToFileURL(join(reportDir, 'report.html')).href);
}, 300_000);

afterAll(async () => {
  await browser?.close();
});

const visibleRows = () => page.locator('tr.clause:not(.hidden)').count();

describe.skipIf(SKIP)(`report.html in headless Chromium${SKIP ? ` (skipped: ${MISSING})` : ''}`, () => {
  test('the banner shows the verdict and the target', async () => {
    const banner = page.locator('#verdict');
    await expect(banner.getAttribute('data-verdict')).resolves.toBe('non-conformant');
    await expect(banner.locator('.verdict-word').textContent()).resolves.toBe('Non-conformant');
    await expect(banner.textContent()).resolves.toContain(report.target.baseUrl);
  });

  test('the counts in the page are those of conformance.json', async () => {
    for (const level of ['MUST', 'SHOULD'] as const) {
      for (const status of ['pass', 'fail', 'warn', 'not_applicable'] as const) {
        const cell = page.locator(`#counts tr[data-level="${level}"] td[data-status="${status}"]`);
        await expect(cell.textContent(), `${level} ${status}`).resolves.toBe(String(report.counts[level][status]));
      }
    }
    await expect(page.locator('tr.clause').count()).resolves.toBe(report.clauses.length);
    await expect(page.locator('tr.clause[data-id="RES-1"] .badge').first().textContent()).resolves.toBe('FAIL');
  });

  test('the page of a failed run opens on what failed: the failed clauses first, "failed or warned only" on', async () => {
    await expect(page.isChecked('#filter-failed')).resolves.toBe(true);
    await expect(page.locator('tr.clause:not(.hidden)').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')))).resolves.toEqual(['GEN-2', 'RES-1']);
    const res = await page.locator('section.family[data-family="RES"] tr.clause').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')));
    expect(res[0]).toBe('fail');
    expect(res.slice(1)).not.toContain('fail');
  });

  test('the filters narrow the matrix: failed only, by family, by level', async () => {
    await page.check('#filter-failed');
    await expect(visibleRows()).resolves.toBe(2);
    await expect(page.locator('#shown').textContent()).resolves.toBe(`2 of ${report.clauses.length} clauses shown`);
    await page.selectOption('#filter-family', 'RES');
    await expect(page.locator('tr.clause:not(.hidden)').getAttribute('data-id')).resolves.toBe('RES-1');
    await expect(page.locator('section.family[data-family="GEN"]').isVisible()).resolves.toBe(false);
    await page.selectOption('#filter-family', '');
    await page.selectOption('#filter-level', 'SHOULD');
    await expect(page.locator('tr.clause:not(.hidden)').getAttribute('data-id')).resolves.toBe('GEN-2');
    await page.uncheck('#filter-failed');
    await page.selectOption('#filter-level', '');
    await expect(visibleRows()).resolves.toBe(report.clauses.length);
  });

  test('a failed check opens to its evidence, and its curl line copies', async () => {
    const check = page.locator('tr.clause[data-id="RES-1"] details.check[data-status="fail"]').first();
    await check.locator('summary').click();
    await expect(check.locator('pre.response').first().isVisible()).resolves.toBe(true);
    const expected = report.clauses.find((c) => c.id === 'RES-1')!.checks.find((c) => c.status === 'fail')!.repro!.curl![0]!;
    await check.locator('button.copy').first().click();
    await expect(page.evaluate('document.body.dataset.lastCopied')).resolves.toBe(expected);
    await page.screenshot({ path: join(reportDir, 'report.png'), fullPage: false });
    expect(statSync(join(reportDir, 'report.png')).size).toBeGreaterThan(10_000);
  });

  test('the page fetches nothing but itself', () => {
    expect(requests.filter((url) => !url.startsWith('file://'))).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  test('it prints to PDF without the filters and with the evidence of every problem', async () => {
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('#filters').isVisible()).resolves.toBe(false);
    // Every clause is printed, whatever the filters on screen.
    await page.evaluate("const f = document.getElementById('filter-failed'); f.checked = true; f.dispatchEvent(new Event('change'))");
    const printed = await page.evaluate("Array.from(document.querySelectorAll('tr.clause')).filter((r) => getComputedStyle(r).display !== 'none').length");
    expect(printed).toBe(report.clauses.length);
    await page.evaluate("window.dispatchEvent(new Event('beforeprint'))");
    const closed = await page.evaluate("document.querySelectorAll('details.check[data-problem]:not([open])').length");
    expect(closed).toBe(0);
    const pdf = await page.pdf({ path: join(reportDir, 'report.pdf'), format: 'A4' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

/** A fleet of one deployment per verdict, one of them incomplete, one with no report. */
function fleet(): FleetReport {
  const d = (name: string, verdict: FleetDeployment['verdict'], complete: boolean, problem: string | null = null): FleetDeployment => ({
    name,
    baseUrl: `https://${name}.example.com`,
    verdict,
    complete,
    exitCode: { conformant: 0, 'non-conformant': 1, inconclusive: 2 }[verdict],
    reportDir: name,
    durationMs: 1000,
    problem,
    manifestSha256: null,
    signedBy: null,
  });
  return {
    format: 'api-v1-conformance-fleet',
    formatVersion: 1,
    name: 'release 4.2',
    startedAt: '2026-01-01T00:00:00.000Z',
    endedAt: '2026-01-01T00:01:00.000Z',
    verdict: 'inconclusive',
    complete: false,
    exitCode: 2,
    deployments: [
      d('acme', 'conformant', true),
      d('globex', 'conformant', false),
      d('initech', 'non-conformant', true),
      d('hooli', 'inconclusive', false, 'no report'),
    ],
    clauses: [],
  };
}

describe('the fleet headline', () => {
  test('carries the worst qualifier of its deployments', () => {
    const report = { ...fleet(), verdict: 'conformant' as const, exitCode: 0 as const };
    expect(renderFleetMarkdown(report)).toMatch(/^## API v1 conformance, release 4\.2: conformant \(incomplete\) \(exit 0\)$/m);
    expect(renderFleetHtml(report)).toMatch(/<span class="verdict-word">conformant<\/span> <span class="incomplete">incomplete<\/span><\/h1>/);
    expect(renderFleetMarkdown({ ...report, complete: true })).toMatch(/: conformant \(exit 0\)$/m);
  });
});

describe.skipIf(SKIP)(`fleet.html in headless Chromium${SKIP ? ` (skipped: ${MISSING})` : ''}`, () => {
  test('every verdict cell has text at a contrast of at least 4.5:1 (WCAG AA), measured from the computed styles', async () => {
    const fleetPage = await browser.newPage();
    await fleetPage.setContent(renderFleetHtml(fleet()));
    // The contrast of each text node's colour over the first opaque background behind it.
    const ratios = (await fleetPage.evaluate(`(() => {
      const rgb = (text) => text.match(/[\\d.]+/g).map(Number);
      const lum = ([r, g, b]) => {
        const c = [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
      };
      const background = (el) => {
        for (let e = el; e; e = e.parentElement) {
          const bg = rgb(getComputedStyle(e).backgroundColor);
          if (bg.length < 4 || bg[3] > 0) return bg;
        }
        return [255, 255, 255];
      };
      const out = [];
      for (const cell of document.querySelectorAll('tr.deployment td:nth-of-type(1)')) {
        for (const el of [cell, ...cell.querySelectorAll('*')]) {
          if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
          const style = getComputedStyle(el);
          const fg = rgb(style.color);
          const alpha = (fg.length > 3 ? fg[3] : 1) * Number(style.opacity);
          const bg = background(el);
          const seen = [0, 1, 2].map((i) => fg[i] * alpha + bg[i] * (1 - alpha));
          const [hi, lo] = [lum(seen), lum(bg)].sort((a, b) => b - a);
          out.push({ text: el.textContent.trim(), ratio: (hi + 0.05) / (lo + 0.05) });
        }
      }
      return out;
    })()`)) as { text: string; ratio: number }[];
    await fleetPage.close();
    expect(ratios.map((r) => r.text)).toEqual(expect.arrayContaining(['conformant', 'non-conformant', 'no report']));
    for (const { text, ratio } of ratios) expect(ratio, text).toBeGreaterThanOrEqual(4.5);
  });
});
