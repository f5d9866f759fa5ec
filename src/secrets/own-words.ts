import type { Redactor } from './redactor.js';

/**
 * The parts of a report document that are the suite's own words, as a shape of their own: the
 * report imports this folder, so this folder does not import the report.
 */
export interface OwnWordsOf {
  readonly format: unknown;
  readonly verdict: unknown;
  readonly complete: unknown;
  readonly clauses: readonly {
    readonly id: string;
    readonly level: string;
    readonly family: string;
    readonly status: string;
    readonly section: string;
    readonly summary: string;
    readonly checks: readonly { readonly clause: string; readonly key?: string | undefined; readonly title: string; readonly status: string }[];
  }[];
}

/**
 * The suite's own words in a report: the verdict, clause IDs, levels, statuses, sections,
 * summaries, check keys and titles. Redaction must never change them; if it would, a value taken for
 * a secret overlaps the suite's vocabulary, and no verdict read from the report can be trusted.
 */
function ownWords(document: OwnWordsOf): string {
  return JSON.stringify({
    format: document.format,
    verdict: document.verdict,
    complete: document.complete,
    clauses: document.clauses.map((c) => [c.id, c.level, c.family, c.status, c.section, c.summary, c.checks.map((k) => [k.clause, k.key, k.title, k.status])]),
  });
}

/** The suite's words that redaction would alter, as one line; null when none. */
export function alteredOwnWords(document: OwnWordsOf, redactor: Redactor): string | null {
  const before = ownWords(document);
  const after = redactor.redact(before);
  if (after === before) return null;
  let at = 0;
  while (at < before.length && before[at] === after[at]) at++;
  const around = before
    .slice(Math.max(0, at - 20), at)
    .replace(/[^\w .:-]/g, ' ')
    .trim();
  return `redacting the secrets the run learnt would alter the suite's own words (after "${around}"): a value taken for a secret overlaps them`;
}
