import { readdirSync, readFileSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../files/atomic.js';
import { join } from 'node:path';
import type { Redactor } from './redactor.js';
import type { Output } from '../output.js';

/**
 * Scans every file the run wrote for a known secret, scrubs any hit in place and names the
 * files it had to scrub. A hit means a redaction was missed somewhere: the run says so loudly.
 * Walks sub-folders too: whatever lands under the report folder is the run's output. `only`
 * names the entries to scan when the rest was scanned already.
 */
export function scrubReports(dir: string, redactor: Redactor, only: readonly string[] | null = null): string[] {
  const scrubbed: string[] = [];
  for (const name of only ?? readdirSync(dir)) {
    const file = join(dir, name);
    const stat = statSync(file);
    if (stat.isDirectory()) {
      scrubbed.push(...scrubReports(file, redactor));
      continue;
    }
    if (!stat.isFile()) continue;
    // Read as bytes and looked through with the byte index first: a report of megabytes
    // (exchanges.har) is decoded and matched against every secret's parts only where it may leak.
    const bytes = readFileSync(file);
    if (!redactor.leaksIn(bytes)) continue;
    writeFileAtomic(file, redactor.redact(bytes.toString('utf8')));
    scrubbed.push(file);
  }
  return scrubbed;
}

/** The run's console output, passed through the redactor; `leaks` counts lines it had to scrub. */
export interface GuardedOutput extends Output {
  readonly leaks: number;
}

/**
 * Wraps the run's output so that no line reaches the console with a secret in it. A scrubbed line
 * is a missed redaction upstream: the run counts it and ends inconclusive.
 */
export function guardOutput(io: Output, redactor: Redactor): GuardedOutput {
  let leaks = 0;
  const safe = (line: string) => {
    if (!redactor.leaks(line)) return line;
    leaks++;
    return redactor.redact(line);
  };
  return {
    out: (line) => io.out(safe(line)),
    err: (line) => io.err(safe(line)),
    get leaks() {
      return leaks;
    },
  };
}
