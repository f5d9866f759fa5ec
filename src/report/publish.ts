import { join } from 'node:path';
import type { Redactor } from '../secrets/redactor.js';
import { MANIFEST_FILE, writeManifest } from '../integrity/manifest.js';
import type { SigningKey } from '../integrity/signing-key.js';
import { readReportFile } from './baseline.js';
import type { ConformanceDocument } from './document.js';
import { scrubReports } from '../secrets/leak-scan.js';
import { REPORT_FILES, writeReports } from './write.js';

export interface Published {
  /** Every file written, the manifest last. */
  readonly files: string[];
  /** Files in which the leak scan found (and scrubbed) a secret. */
  readonly leaked: string[];
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
): Published {
  const written = writeReports(document, dir, redactor, { stepSummary: stepSummary ? process.env.GITHUB_STEP_SUMMARY || null : null });
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
