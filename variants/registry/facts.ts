import authOauthShape from '../auth-401-oauth-shape.js';
import keyPrefixUndeclared from '../key-prefix-undeclared.js';
import keySecretMemberUndeclared from '../key-secret-member-undeclared.js';
import auth401FlatShape from '../auth-401-flat-shape.js';
import auth401Envelope from '../auth-401-envelope.js';
import keyCreate200 from '../key-create-200.js';
import keyDelete200Body from '../key-delete-200-body.js';
import keyDelete202 from '../key-delete-202.js';
import keyFieldsRenamed from '../key-fields-renamed.js';
import keyPrefixShort from '../key-prefix-short.js';
import keyPrefixLong from '../key-prefix-long.js';
import keyPrefixDash from '../key-prefix-dash.js';
import keyPathsUndeclared from '../key-paths-undeclared.js';
import keyPathsUnconventionalUndeclared from '../key-paths-unconventional-undeclared.js';
import submissionCreatedEmpty from '../submission-created-empty.js';
import submissionCreatedFull from '../submission-created-full.js';
import submissionCreatedIdOnly from '../submission-created-id-only.js';
import submissionListRenamed from '../submission-list-renamed.js';
import workspaceParamRenamed from '../workspace-param-renamed.js';
import requiredFieldsNone from '../required-fields-none.js';
import requiredFieldsRows from '../required-fields-rows.js';
import requiredFieldsTaxonomyId from '../required-fields-taxonomy-id.js';
import requiredFieldsWorkspaceId from '../required-fields-workspace-id.js';
import requiredFieldsWorkspaceIdRows from '../required-fields-workspace-id-rows.js';
import requiredFieldsWorkspaceIdTaxonomyId from '../required-fields-workspace-id-taxonomy-id.js';
import requiredFieldsQueryOptional from '../required-fields-query-optional.js';
import cataloguePayloadsNested from '../catalogue-payloads-nested.js';
import recordStatusesOther from '../record-statuses-other.js';
import error400TypeOther from '../error-400-type-other.js';
import validationCodeNull from '../validation-code-null.js';
import validationCodeOther from '../validation-code-other.js';
import conflict409DuplicateKeyName from '../conflict-409-duplicate-key-name.js';
import duplicateKeyName422 from '../duplicate-key-name-422.js';
import keyNameLengthCapped from '../key-name-length-capped.js';
import lastUseUnixSeconds from '../last-use-unix-seconds.js';
import retrievalWrapped from '../retrieval-wrapped.js';

/** Variants that choose a fact the document marks "not shown" differently. */
export const FACT_VARIANTS = {
  'auth-401-oauth-shape': authOauthShape,
  'key-prefix-undeclared': keyPrefixUndeclared,
  'key-secret-member-undeclared': keySecretMemberUndeclared,
  'auth-401-flat-shape': auth401FlatShape,
  'auth-401-envelope': auth401Envelope,
  'key-create-200': keyCreate200,
  'key-delete-200-body': keyDelete200Body,
  'key-delete-202': keyDelete202,
  'key-fields-renamed': keyFieldsRenamed,
  'key-prefix-short': keyPrefixShort,
  'key-prefix-long': keyPrefixLong,
  'key-prefix-dash': keyPrefixDash,
  'key-paths-undeclared': keyPathsUndeclared,
  'key-paths-unconventional-undeclared': keyPathsUnconventionalUndeclared,
  'submission-created-empty': submissionCreatedEmpty,
  'submission-created-full': submissionCreatedFull,
  'submission-created-id-only': submissionCreatedIdOnly,
  'submission-list-renamed': submissionListRenamed,
  'workspace-param-renamed': workspaceParamRenamed,
  'required-fields-none': requiredFieldsNone,
  'required-fields-rows': requiredFieldsRows,
  'required-fields-taxonomy-id': requiredFieldsTaxonomyId,
  'required-fields-workspace-id': requiredFieldsWorkspaceId,
  'required-fields-workspace-id-rows': requiredFieldsWorkspaceIdRows,
  'required-fields-workspace-id-taxonomy-id': requiredFieldsWorkspaceIdTaxonomyId,
  'required-fields-query-optional': requiredFieldsQueryOptional,
  'catalogue-payloads-nested': cataloguePayloadsNested,
  'record-statuses-other': recordStatusesOther,
  'error-400-type-other': error400TypeOther,
  'validation-code-null': validationCodeNull,
  'validation-code-other': validationCodeOther,
  'conflict-409-duplicate-key-name': conflict409DuplicateKeyName,
  'duplicate-key-name-422': duplicateKeyName422,
  'key-name-length-capped': keyNameLengthCapped,
  'last-use-unix-seconds': lastUseUnixSeconds,
  'retrieval-wrapped': retrievalWrapped,
} as const;
