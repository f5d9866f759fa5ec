import type { Profile } from '../profile/profile.js';
import { CLAUSES, NEEDS, type ClauseId, type Need } from './catalogue.js';

/** What applicability needs to know beyond the profile. */
export interface ApplicabilityInput {
  readonly profile: Profile;
  readonly hasOtherAccountKey: boolean;
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
  requiredFields: ({ profile: p }) =>
    (p.submissions.requiredBodyFields?.length ?? 0) > 0 || p.submissions.workspaceQueryParamRequired === true,
  recordPath: ({ profile: p }) => p.paths.record !== null,
};

/** The needs of a clause that the profile or settings leave undeclared; empty means applicable. */
export function missingNeeds(id: ClauseId, input: ApplicabilityInput): Need[] {
  return CLAUSES[id].needs.filter((need) => !DECLARED[need](input));
}

export function notApplicableReason(id: ClauseId, input: ApplicabilityInput): string | null {
  const missing = missingNeeds(id, input);
  if (missing.length === 0) return null;
  return `not declared: ${missing.map((need) => NEEDS[need]).join(', ')}`;
}
