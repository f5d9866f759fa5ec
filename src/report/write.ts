import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redactor } from '../http/redactor.js';
import type { ConformanceDocument } from './document.js';
import { renderHtml } from './html.js';
import { renderSummary } from './summary.js';

/** The files a run writes besides JUnit (which vitest writes itself) and the ledger. */
export const REPORT_FILES = { json: 'conformance.json', html: 'report.html', summary: 'summary.md' } as const;

export interface WriteOptions {
  /** The JUnit file, named in the summary. */
  readonly junitFile?: string;
  /** `$GITHUB_STEP_SUMMARY`: the summary is appended there too when set. */
  readonly stepSummary?: string | null;
}

/**
 * Writes every report of a run from its document, each rendered from the redacted document so
 * that no renderer can reintroduce a secret. Returns the paths written.
 */
export function writeReports(document: ConformanceDocument, dir: string, redactor: Redactor, options: WriteOptions = {}): string[] {
  const safe = redactor.redactDeep(document);
  const json = join(dir, REPORT_FILES.json);
  const html = join(dir, REPORT_FILES.html);
  const summary = join(dir, REPORT_FILES.summary);
  writeFileSync(json, `${JSON.stringify(safe, null, 2)}\n`);
  writeFileSync(html, redactor.redact(renderHtml(safe)));
  const markdown = redactor.redact(renderSummary(safe, [json, html, ...(options.junitFile ? [options.junitFile] : [])]));
  writeFileSync(summary, markdown);
  if (options.stepSummary) appendFileSync(options.stepSummary, markdown);
  return [json, html, summary];
}
