import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redactor } from '../http/redactor.js';
import type { ConformanceDocument } from './document.js';

/**
 * Writes every report of a run from its document, redacted. JUnit is written by vitest itself.
 * Returns the paths written.
 */
export function writeReports(document: ConformanceDocument, dir: string, redactor: Redactor): string[] {
  const safe = redactor.redactDeep(document);
  const json = join(dir, 'conformance.json');
  writeFileSync(json, `${JSON.stringify(safe, null, 2)}\n`);
  return [json];
}
