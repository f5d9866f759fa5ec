import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redactor } from '../http/redactor.js';

/**
 * Scans every file the run wrote for a known secret, scrubs any hit in place and names the
 * files it had to scrub. A hit means a redaction was missed somewhere: the run says so loudly.
 */
export function scrubReports(dir: string, redactor: Redactor): string[] {
  const scrubbed: string[] = [];
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (!statSync(file).isFile()) continue;
    const text = readFileSync(file, 'utf8');
    if (!redactor.leaks(text)) continue;
    writeFileSync(file, redactor.redact(text));
    scrubbed.push(file);
  }
  return scrubbed;
}
