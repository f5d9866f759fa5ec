import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// What a test that counts 429s prints when it finds one: the answer and the answers read just
// before it, with their rate-limit headers and the check that sent each, from the run's
// exchanges.har. A 429 met once in many runs is diagnosed from this, not guessed at.

interface HarEntry {
  readonly startedDateTime: string;
  readonly comment?: string;
  readonly request: { readonly method: string; readonly url: string };
  readonly response: { readonly status: number; readonly headers: readonly { name: string; value: string }[] };
}

/** Answers shown before each 429. */
const BEFORE = 6;

/** Each 429 of the run in `reportDir`, with the answers before it; '' when there is none, or no HAR. */
export function describe429s(reportDir: string): string {
  const file = join(reportDir, 'exchanges.har');
  if (!existsSync(file)) return '';
  const entries = (JSON.parse(readFileSync(file, 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
  const start = entries.length > 0 ? Date.parse(entries[0]!.startedDateTime) : 0;
  const line = (e: HarEntry) => {
    const header = (name: string) => e.response.headers.find((h) => h.name.toLowerCase() === name)?.value ?? '-';
    const rate = `limit ${header('x-ratelimit-limit')} remaining ${header('x-ratelimit-remaining')} reset ${header('x-ratelimit-reset')} retry-after ${header('retry-after')}`;
    const path = e.request.url.replace(/^[a-z]+:\/\/[^/]+/i, '');
    return `+${Date.parse(e.startedDateTime) - start} ms ${e.request.method} ${path} → ${e.response.status} (${rate}) ${e.comment ?? ''}`;
  };
  return entries
    .flatMap((e, i) =>
      e.response.status === 429 ? [[...entries.slice(Math.max(0, i - BEFORE), i).map((b) => `   ${line(b)}`), `429 ${line(e)}`].join('\n')] : [],
    )
    .join('\n\n');
}
