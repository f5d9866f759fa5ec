import type { Variant } from '../../variants/variant.js';
import type { ConformanceDocument } from '../../src/report/document.js';

/** What a run of a conformant variant flagged that it must not have. */
export interface ToleranceVerdict {
  /** MUST failures, suite faults, and warnings the variant does not declare. */
  readonly falseFindings: string[];
}

/**
 * A conformant variant may be flagged only with the warnings it declares; a failure or an error
 * is a false verdict. Under the document-only profile (`documentOnly`), warnings are allowed too:
 * the run knows no fact, so a SHOULD may read a choice as a deviation, but nothing may fail.
 */
export function judgeTolerance(variant: Variant, report: ConformanceDocument, options: { documentOnly?: boolean } = {}): ToleranceVerdict {
  const declared = new Set(Object.keys(variant.mayWarn ?? {}));
  const falseFindings = report.clauses
    .filter((c) => c.status === 'fail' || c.status === 'error' || (c.status === 'warn' && !options.documentOnly && !declared.has(c.id)))
    .map((c) => `${c.id} ${c.status}: ${c.reason ?? ''}`);
  return { falseFindings: [...falseFindings, ...report.suiteFaults.map((f) => `suite fault: ${f}`), ...keysLeft(report)] };
}

/**
 * A run leaves no live key behind: none where the profile declares a key path, at most the one
 * probe key where it does not and the conventional path does not delete keys.
 */
function keysLeft(report: ConformanceDocument): string[] {
  const keys = (entries: readonly { kind: string }[]) => entries.filter((e) => e.kind === 'api_key').length;
  const left = keys(report.resources.created) - keys(report.resources.removed);
  const declared = (report.profile.content as { paths?: { apiKey?: string | null } }).paths?.apiKey != null;
  const allowed = declared ? 0 : 1;
  return left > allowed ? [`${left} key(s) left on the target (at most ${allowed} allowed)`] : [];
}
