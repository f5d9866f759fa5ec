import type { Exchange } from '../http/exchange.js';
import { renderCtrf } from './ctrf.js';
import type { ConformanceDocument } from './document.js';
import { renderHar } from './har.js';
import type { HarEntries } from './har-entries.js';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import { renderSummary } from './summary.js';

/** One report a run writes beside `conformance.json`'s siblings. */
export interface ReportFormat {
  /** The file's name in the report folder. */
  readonly file: string;
  /**
   * Renders the already redacted document; `others` are the paths of the other reports, for a
   * format that names them; `log` is every exchange of the run (empty for a run stopped before its
   * broker), redacted (`logForFormats` in `write.ts`): a format writes each string of it as it is,
   * escaped as its syntax needs, and only its URLs otherwise (decoded). `harEntries`: the log's
   * HAR entries rendered ahead. A text, or its UTF-8 bytes (a report of megabytes).
   */
  readonly render: (document: ConformanceDocument, others: readonly string[], log: readonly Exchange[], harEntries: HarEntries) => string | Uint8Array;
  /** Also appended to `$GITHUB_STEP_SUMMARY` when it is set. */
  readonly stepSummary?: boolean;
}

/** Every report format, in the order the run names them. Adding one is a file and a line here. */
export const REPORT_FORMATS = {
  json: { file: 'conformance.json', render: (document) => `${JSON.stringify(document, null, 2)}\n` },
  html: { file: 'report.html', render: (document) => renderHtml(document) },
  summary: { file: 'summary.md', render: (document, others) => renderSummary(document, others), stepSummary: true },
  junit: { file: 'junit.xml', render: (document) => renderJunit(document) },
  ctrf: { file: 'ctrf.json', render: (document, _others, log) => renderCtrf(document, log) },
  har: { file: 'exchanges.har', render: (document, _others, log, harEntries) => renderHar(document, log, harEntries) },
} as const satisfies Record<string, ReportFormat>;

export type ReportFormatName = keyof typeof REPORT_FORMATS;

/** The file of each format, by name. */
export const REPORT_FILES = Object.fromEntries(Object.entries(REPORT_FORMATS).map(([name, format]) => [name, format.file])) as {
  readonly [Name in ReportFormatName]: (typeof REPORT_FORMATS)[Name]['file'];
};
