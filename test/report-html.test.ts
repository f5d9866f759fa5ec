import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ConformanceDocument } from '../src/report/document.js';
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
    await page.evaluate("window.dispatchEvent(new Event('beforeprint'))");
    const closed = await page.evaluate("document.querySelectorAll('details.check[data-problem]:not([open])').length");
    expect(closed).toBe(0);
    const pdf = await page.pdf({ path: join(reportDir, 'report.pdf'), format: 'A4' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
