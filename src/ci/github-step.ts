import type { ConformanceDocument } from '../report/document.js';

/**
 * GitHub shows at most 10 annotations of a kind per step (and 50 a job), dropping the rest
 * without a word: the step emits up to this many of each kind, then one notice that counts the rest.
 */
export const ANNOTATIONS_PER_KIND = 10;

/** GitHub does not show a step summary over 1 MiB: the step keeps its part of it under this, pointer included. */
export const STEP_SUMMARY_LIMIT = 1024 * 1024 - 4096;

export type AnnotationKind = 'error' | 'warning' | 'notice';

/** One finding as a workflow command: a clause that failed (`error`) or warned (`warning`), by check. */
export interface Annotation {
  readonly kind: AnnotationKind;
  readonly title: string;
  readonly message: string;
}

/** A check's status as an annotation's kind; what passed or was not judged is not annotated. */
const KIND: Record<string, AnnotationKind | undefined> = { fail: 'error', error: 'error', warn: 'warning' };

/** Every finding of the report, a failed or warned check each, clause by clause in the catalogue's order. */
export function findingsOf(doc: Pick<ConformanceDocument, 'clauses'>): Annotation[] {
  const out: Annotation[] = [];
  for (const clause of doc.clauses) {
    for (const check of clause.checks) {
      const kind = KIND[check.status];
      if (kind) out.push({ kind, title: `${clause.id} (${clause.level}): ${check.title}`, message: check.reason ?? check.status });
    }
  }
  return out;
}

/**
 * The workflow commands for a report: up to `ANNOTATIONS_PER_KIND` of each kind, and, when some
 * were left out, one notice saying how many and where they are. No annotation points at a file:
 * a finding is the target's, not a line of the repository's.
 */
export function annotationLines(doc: Pick<ConformanceDocument, 'clauses'>, reportName = 'report.html'): string[] {
  const shown = new Map<AnnotationKind, number>();
  const left = new Map<AnnotationKind, number>();
  const lines: string[] = [];
  for (const a of findingsOf(doc)) {
    const n = shown.get(a.kind) ?? 0;
    if (n >= ANNOTATIONS_PER_KIND) {
      left.set(a.kind, (left.get(a.kind) ?? 0) + 1);
      continue;
    }
    shown.set(a.kind, n + 1);
    lines.push(workflowCommand(a.kind, a.title, a.message));
  }
  const more = [...left.values()].reduce((s, n) => s + n, 0);
  if (more > 0) {
    const which = [...left].map(([kind, n]) => `${n} ${kind}${n === 1 ? '' : 's'}`).join(', ');
    lines.push(
      workflowCommand('notice', 'API v1 conformance', `${more} more finding(s) (${which}) are in ${reportName} and conformance.json of the report folder`),
    );
  }
  return lines;
}

/** `::kind title=…::message`, escaped as GitHub's workflow commands require. */
export function workflowCommand(kind: AnnotationKind, title: string, message: string): string {
  return `::${kind} title=${escapeProperty(title)}::${escapeData(message)}`;
}

function escapeData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * The summary as the step summary takes it: whole when under `limit` bytes, else cut at a line
 * and ended with a pointer to the full report.
 */
export function boundedSummary(text: string, limit = STEP_SUMMARY_LIMIT, reportName = 'report.html'): string {
  if (Buffer.byteLength(text) <= limit) return text;
  const pointer = `\n\n… cut here: the summary is ${Buffer.byteLength(text)} bytes, past what GitHub shows. The whole report is ${reportName} in the report folder (the workflow's artifact).\n`;
  const room = limit - Buffer.byteLength(pointer);
  // Cut on bytes, then back to the last whole line (never in a UTF-8 sequence, nor mid-row of a table).
  let cut = Buffer.from(text).subarray(0, room).toString('utf8');
  if (cut.endsWith('\uFFFD')) cut = cut.slice(0, -1);
  const line = cut.lastIndexOf('\n');
  return `${line > 0 ? cut.slice(0, line) : cut}${pointer}`;
}

/** `name=value` lines for `$GITHUB_OUTPUT` (every value on one line). */
export function outputLines(outputs: Record<string, string | number>): string {
  return Object.entries(outputs)
    .map(([name, value]) => `${name}=${String(value).replace(/[\r\n]+/g, ' ')}\n`)
    .join('');
}

/**
 * A line of extra arguments split as a shell would split words: on blanks, with single and double
 * quotes keeping a word together. Nothing is expanded: no variable, glob or command substitution.
 */
export function splitArguments(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = null;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      word ??= '';
    } else if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + ch;
    }
  }
  if (quote) throw new Error(`unclosed ${quote} in the extra arguments`);
  if (word !== null) words.push(word);
  return words;
}
