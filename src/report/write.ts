import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Exchange } from '../http/exchange.js';
import type { Redactor } from '../secrets/redactor.js';
import { writeFileAtomic } from '../files/atomic.js';
import type { ConformanceDocument } from './document.js';
import { REPORT_FORMATS, type ReportFormat } from './formats.js';
import { HarEntries } from './har-entries.js';
import { withoutLocalPaths } from './local-paths.js';

export { REPORT_FILES } from './formats.js';

export interface WriteOptions {
  /** `$GITHUB_STEP_SUMMARY`: the formats that say so are appended there too when set. */
  readonly stepSummary?: string | null;
  /** Every exchange of the run, for the formats that show them (`exchanges.har`, `ctrf.json`'s retries). @default [] */
  readonly log?: readonly Exchange[];
  /** The log's HAR entries, rendered while the run went on (`har-entries.ts`). */
  readonly harEntries?: HarEntries;
}

/**
 * Writes every rendered report of a run from its document (`formats.ts`), each from the redacted
 * document so that no renderer can reintroduce a secret, and each rendered text redacted again
 * whole. Returns the paths written.
 */
export function writeReports(document: ConformanceDocument, dir: string, redactor: Redactor, options: WriteOptions = {}): string[] {
  // No secret, and no local path: file names only (issue 26).
  const safe = withoutLocalPaths(redactor.redactDeep(document));
  const log = logForFormats(options.log ?? [], redactor);
  const harEntries = options.harEntries ?? new HarEntries();
  const formats: readonly ReportFormat[] = Object.values(REPORT_FORMATS);
  const written: string[] = [];
  for (const format of formats) {
    const others = formats.filter((f) => f !== format).map((f) => f.file);
    const rendered = format.render(safe, others, log, harEntries);
    const text = typeof rendered === 'string' ? redactor.redact(rendered) : redactor.redactBytes(rendered);
    const path = join(dir, format.file);
    writeFileAtomic(path, text);
    if (format.stepSummary && options.stepSummary) appendFileSync(options.stepSummary, text);
    written.push(path);
  }
  return written;
}

/**
 * The log as the formats take it: redacted string by string, or, where every secret is plain
 * (`Redactor.plainSecrets`), only in its URLs, whose query a format may write decoded (the HAR's
 * `queryString`: a `+` read as a space). A format writes every other string of the log as it is,
 * escaped as its syntax needs, and a plain secret stands in that text as in the string: the
 * redaction of each rendered text finds all a copy redacted string by string would have, and that
 * copy of megabytes (some 40 ms of a local run's end) is spared. A secret with a quote or a
 * backslash could stand escaped in the text: then the log is redacted first. An exchange whose URL
 * holds no secret is handed on as it is: its HAR entry rendered ahead is its entry.
 */
function logForFormats(log: readonly Exchange[], redactor: Redactor): readonly Exchange[] {
  if (!redactor.plainSecrets) return redactor.redactDeep(log);
  return log.map((e) => {
    const url = redactor.redact(e.request.url);
    return url === e.request.url ? e : { ...e, request: { ...e.request, url } };
  });
}
