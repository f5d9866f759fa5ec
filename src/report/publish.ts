import { join } from 'node:path';
import type { Exchange } from '../http/exchange.js';
import type { Redactor } from '../secrets/redactor.js';
import { MANIFEST_FILE, writeManifest } from '../integrity/manifest.js';
import type { SigningKey } from '../integrity/signing-key.js';
import type { VerdictResult } from '../verdict/verdict.js';
import { compareReports, readReportFile } from './baseline.js';
import { buildDocument, type ConformanceDocument, type DocumentInput, type Integrity } from './document.js';
import { scrubReports } from '../secrets/leak-scan.js';
import { alteredOwnWords } from '../secrets/own-words.js';
import type { HarEntries } from './har-entries.js';
import { REPORT_FILES, writeReports } from './write.js';

export interface Published {
  /** Every file written, the manifest last. */
  readonly files: string[];
  /** Files in which the leak scan found (and scrubbed) a secret. */
  readonly leaked: string[];
}

/** A run that finished, as the report pipeline takes it over from the run after vitest. */
export interface FinishedRun {
  /** The document's contents but the verdict, the suite's faults and the integrity, which the pipeline settles. */
  readonly document: Omit<DocumentInput, 'verdict' | 'suiteFaults' | 'integrity'>;
  readonly suiteFaults: readonly string[];
  /** The run's verdict for a list of the suite's faults (its rules: `--strict`, `--require-complete`, `--certify`). */
  readonly judge: (suiteFaults: readonly string[]) => VerdictResult;
  /** Every secret the run knows: the reports are redacted and scanned with it. */
  readonly redactor: Redactor;
  /** `--baseline`: the earlier report, and its file's name as the comparison names it. */
  readonly baseline: { readonly report: ConformanceDocument; readonly name: string } | null;
  readonly dir: string;
  readonly signingKey: SigningKey | null;
  /** The log's HAR entries, rendered while the run went on. */
  readonly harEntries?: HarEntries;
}

/**
 * The report of a run that finished: its document, judged again as inconclusive where redaction
 * altered the suite's own words, compared with its baseline, then published (`publish`).
 */
export function publishRun(run: FinishedRun): { document: ConformanceDocument; verdict: VerdictResult; published: Published } {
  const input = { ...run.document, integrity: integrityOf(run.signingKey) };
  let verdict = run.judge(run.suiteFaults);
  let document = buildDocument({ ...input, verdict, suiteFaults: run.suiteFaults });
  // A report whose own words a redaction altered carries no verdict anyone may trust.
  const altered = alteredOwnWords(document, run.redactor);
  if (altered) {
    const suiteFaults = [...run.suiteFaults, altered];
    verdict = run.judge(suiteFaults);
    if (verdict.verdict !== 'inconclusive') verdict = { ...verdict, verdict: 'inconclusive', exitCode: 2, because: `the suite itself broke: ${altered}` };
    document = buildDocument({ ...input, verdict, suiteFaults });
  }
  if (run.baseline) document.baseline = compareReports(run.baseline.report, document, run.baseline.name);
  return { document, verdict, published: publish(document, run.dir, run.redactor, run.signingKey, true, run.document.log, run.harEntries) };
}

/** What the report says of the manifest beside it: signed, and by which key, or not. */
export function integrityOf(signingKey: SigningKey | null | undefined): Integrity {
  return { manifest: MANIFEST_FILE, signed: Boolean(signingKey), publicKeyFingerprint: signingKey?.fingerprint ?? null };
}

/**
 * Writes a run's report folder from its document, whatever ended the run: the reports (each
 * written whole, `atomic.ts`), the leak scan over them, the manifest of what stays (signed when a
 * key is given), and the scan of the manifest.
 */
export function publish(
  document: ConformanceDocument,
  dir: string,
  redactor: Redactor,
  signingKey: SigningKey | null,
  /** Append `summary.md` to `$GITHUB_STEP_SUMMARY`: not for the provisional report a run replaces. @default true */
  stepSummary = true,
  /** Every exchange of the run (`exchanges.har`, `ctrf.json`). @default [] */
  log: readonly Exchange[] = [],
  /** The log's HAR entries rendered ahead, where the run followed its log. */
  harEntries?: HarEntries,
): Published {
  const stepSummaryFile = stepSummary ? process.env.GITHUB_STEP_SUMMARY || null : null;
  const written = writeReports(document, dir, redactor, { stepSummary: stepSummaryFile, log, ...(harEntries ? { harEntries } : {}) });
  const leaked = scrubReports(dir, redactor);
  // Digests of the files as they stay: taken after the scan, which may have scrubbed one.
  const manifest = writeManifest(dir, Object.values(REPORT_FILES), {
    suite: document.suite,
    document: readReportFile(join(dir, REPORT_FILES.json), 'the report just written'),
    key: signingKey,
  });
  leaked.push(...scrubReports(dir, redactor, [MANIFEST_FILE]));
  return { files: [...written, manifest], leaked };
}
