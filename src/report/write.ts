import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Exchange } from '../http/exchange.js';
import type { Redactor } from '../secrets/redactor.js';
import { writeFileAtomic } from '../files/atomic.js';
import type { ConformanceDocument } from './document.js';
import { REPORT_FORMATS, type ReportFormat } from './formats.js';
import { withoutLocalPaths } from './local-paths.js';

export { REPORT_FILES } from './formats.js';

export interface WriteOptions {
  /** `$GITHUB_STEP_SUMMARY`: the formats that say so are appended there too when set. */
  readonly stepSummary?: string | null;
  /** Every exchange of the run, for the formats that show them (`exchanges.har`, `ctrf.json`'s retries). @default [] */
  readonly log?: readonly Exchange[];
}

/**
 * Writes every rendered report of a run from its document (`formats.ts`), each from the redacted
 * document so that no renderer can reintroduce a secret, and each rendered text redacted again
 * whole. Returns the paths written.
 */
export function writeReports(document: ConformanceDocument, dir: string, redactor: Redactor, options: WriteOptions = {}): string[] {
  // No secret, and no local path: file names only (issue 26).
  const safe = withoutLocalPaths(redactor.redactDeep(document));
  // The log is megabytes of strings. Where every secret is plain (`Redactor.plainSecrets`), the
  // redaction of each rendered text below finds all a copy of it redacted string by string would
  // have, and that copy (some 40 ms of a local run's end) is spared; otherwise a secret with a
  // quote or a backslash could stand escaped in the text, and the log is redacted first.
  const log = redactor.plainSecrets ? (options.log ?? []) : redactor.redactDeep(options.log ?? []);
  const formats: readonly ReportFormat[] = Object.values(REPORT_FORMATS);
  const written: string[] = [];
  for (const format of formats) {
    const others = formats.filter((f) => f !== format).map((f) => f.file);
    const text = redactor.redact(format.render(safe, others, log));
    const path = join(dir, format.file);
    writeFileAtomic(path, text);
    if (format.stepSummary && options.stepSummary) appendFileSync(options.stepSummary, text);
    written.push(path);
  }
  return written;
}
