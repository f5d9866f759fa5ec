import type { Profile } from '../profile/profile.js';
import { selectionReason, type Selection } from './selection.js';
import { CLAUSES, NEEDS, type ClauseId, type Need } from './catalogue.js';

/**
 * Why a clause or a check is not run: decided here once, for `check()`, the verdict, the dry run
 * and the estimates. Completeness follows from the kind, never from the reason's wording.
 */
export type NotRunCause =
  /** `--only` or `--skip` leaves it out: the run is incomplete. */
  | { readonly kind: 'selection'; readonly reason: string }
  /** A fact the document leaves open is not declared, or a setting (a second key) is not given. */
  | { readonly kind: 'undeclared'; readonly reason: string }
  /** `--read-only` leaves out what writes: the run is incomplete. */
  | { readonly kind: 'read-only'; readonly reason: string }
  /** `--max-submissions` leaves no room for the submissions a check creates: the run is incomplete. */
  | { readonly kind: 'max-submissions'; readonly reason: string };

export type NotRunKind = NotRunCause['kind'];

/** Causes that leave a run incomplete: the run's own choice, not a fact the profile left open. */
export const INCOMPLETE_KINDS: ReadonlySet<NotRunKind> = new Set(['selection', 'read-only', 'max-submissions']);

/** What applicability needs to know beyond the clause. */
export interface ApplicabilityInput {
  readonly profile: Profile;
  readonly hasOtherAccountKey: boolean;
  readonly selection: Selection;
  readonly readOnly: boolean;
  /** `--max-submissions`; absent: no cap is in question. */
  readonly maxSubmissions?: number | undefined;
}

/** The one wording of a cap that leaves no room, for checks, the dry run and the report. */
export function maxSubmissionsCause(cap: number): NotRunCause {
  return {
    kind: 'max-submissions',
    reason:
      cap === 0
        ? '--max-submissions 0: no submission may be created'
        : `--max-submissions ${cap}: the run has created the ${cap} submissions it may, none is left for this check`,
  };
}

const DECLARED: Record<Need, (input: ApplicabilityInput) => boolean> = {
  retrievalPaths: ({ profile: p }) => p.paths.workspace !== null && p.paths.governanceModel !== null && p.paths.record !== null,
  taxonomyPaths: ({ profile: p }) =>
    [p.paths.taxonomies, p.paths.taxonomy, p.paths.fields, p.paths.field, p.paths.picklists, p.paths.picklist].every((x) => x !== null),
  forbiddenProbe: ({ profile: p }) => p.forbiddenProbe !== null,
  keyPrefix: ({ profile: p }) => p.keyPrefix !== null,
  otherAccountKey: ({ hasOtherAccountKey }) => hasOtherAccountKey,
  keyListPath: ({ profile: p }) => p.paths.apiKeyList !== null,
  keyPath: ({ profile: p }) => p.paths.apiKey !== null,
  keyFieldNames: ({ profile: p }) => p.apiKeyFields.name !== null && p.apiKeyFields.lastUsedAt !== null,
  workspaceQueryParam: ({ profile: p }) => p.submissions.workspaceQueryParam !== null,
  submissionListPath: ({ profile: p }) => p.paths.submissionList !== null,
  filterNames: ({ profile: p }) => p.submissions.listFilters?.workspace != null && p.submissions.listFilters.taxonomy != null,
  requiredFields: ({ profile: p }) => (p.submissions.requiredBodyFields?.length ?? 0) > 0 || p.submissions.workspaceQueryParamRequired === true,
  recordPath: ({ profile: p }) => p.paths.record !== null,
};

/** The needs of a clause that the profile or settings leave undeclared; empty means applicable. */
export function missingNeeds(id: ClauseId, input: Pick<ApplicabilityInput, 'profile' | 'hasOtherAccountKey'>): Need[] {
  return CLAUSES[id].needs.filter((need) => !DECLARED[need](input as ApplicabilityInput));
}

/** A cause for a fact the profile leaves open, phrased the one way every report says it. */
export function undeclared(what: string): NotRunCause {
  return { kind: 'undeclared', reason: `not declared: ${what}` };
}

/**
 * Why a check of `id` does not run, or null when it runs. A check that writes is left out by
 * `--read-only`, one that creates submissions by `--max-submissions 0`; a clause with no check in
 * this version is asked with `writes: false`.
 */
export function notRunCause(
  id: ClauseId,
  input: ApplicabilityInput,
  check: { readonly writes?: boolean | undefined; readonly submissions?: number } = {},
): NotRunCause | null {
  const selected = selectionReason(id, input.selection);
  if (selected) return { kind: 'selection', reason: selected };
  const missing = missingNeeds(id, input);
  if (missing.length > 0) return undeclared(missing.map((need) => NEEDS[need]).join(', '));
  if (check.writes && input.readOnly) return { kind: 'read-only', reason: 'read-only' };
  if ((check.submissions ?? 0) > 0 && input.maxSubmissions === 0) return maxSubmissionsCause(0);
  return null;
}
