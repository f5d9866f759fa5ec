import authErrorCodeSet from '../auth-error-code-set.js';
import extraTokenPartsIgnored from '../extra-token-parts-ignored.js';
import forbiddenAs404 from '../forbidden-as-404.js';
import header401PlainText from '../header-401-plain-text.js';
import keyDeleteAnyAccount from '../key-delete-any-account.js';
import keyPrefixMissing from '../key-prefix-missing.js';
import otherAccountRecordVisible from '../other-account-record-visible.js';
import submissionIntoOtherAccount from '../submission-into-other-account.js';
import revokedKeyCanPost from '../revoked-key-can-post.js';
import publicGovernanceModelRetrieval from '../public-governance-model-retrieval.js';
import tokenSchemeAccepted from '../token-scheme-accepted.js';
import unknownKey403 from '../unknown-key-403.js';
import apiKeyQueryParam from '../api-key-query-param.js';
import authCachedPerConnection from '../auth-cached-per-connection.js';

/** Mutants of the AUTH family. */
export const AUTH_MUTANTS = {
  'public-governance-model-retrieval': publicGovernanceModelRetrieval,
  'token-scheme-accepted': tokenSchemeAccepted,
  'extra-token-parts-ignored': extraTokenPartsIgnored,
  'unknown-key-403': unknownKey403,
  'forbidden-as-404': forbiddenAs404,
  'key-prefix-missing': keyPrefixMissing,
  'other-account-record-visible': otherAccountRecordVisible,
  'submission-into-other-account': submissionIntoOtherAccount,
  'key-delete-any-account': keyDeleteAnyAccount,
  'header-401-plain-text': header401PlainText,
  'auth-error-code-set': authErrorCodeSet,
  'revoked-key-can-post': revokedKeyCanPost,
  'api-key-query-param': apiKeyQueryParam,
  'auth-cached-per-connection': authCachedPerConnection,
} as const;
