import createdKeyTruncated from '../created-key-truncated.js';
import keyCreateUpsertByName from '../key-create-upsert-by-name.js';
import keyNameTruncated from '../key-name-truncated.js';
import lastUsedOnReadsOnly from '../last-used-on-reads-only.js';
import revokedKeyOnRetrievals from '../revoked-key-on-retrievals.js';
import deletedKeyStillListed from '../deleted-key-still-listed.js';
import keyEchoedInHeader from '../key-echoed-in-header.js';
import keyShownOnRetrieval from '../key-shown-on-retrieval.js';
import unusedKeysUnlisted from '../unused-keys-unlisted.js';
import lastUsedNeverUpdated from '../last-used-never-updated.js';
import lastUsedNotATime from '../last-used-not-a-time.js';
import missingKeyName422 from '../missing-key-name-422.js';
import newKeyPropagationDelay from '../new-key-propagation-delay.js';
import revokedKeyGrace from '../revoked-key-grace.js';
import secondDelete200 from '../second-delete-200.js';
import secretTailInKeyList from '../secret-tail-in-key-list.js';
import keyIdCounterStepsBack from '../key-id-counter-steps-back.js';
import keyListByCreator from '../key-list-by-creator.js';

/** Mutants of the KEY family. */
export const KEY_MUTANTS = {
  'created-key-truncated': createdKeyTruncated,
  'new-key-propagation-delay': newKeyPropagationDelay,
  'secret-tail-in-key-list': secretTailInKeyList,
  'key-echoed-in-header': keyEchoedInHeader,
  'key-shown-on-retrieval': keyShownOnRetrieval,
  'revoked-key-grace': revokedKeyGrace,
  'second-delete-200': secondDelete200,
  'deleted-key-still-listed': deletedKeyStillListed,
  'last-used-never-updated': lastUsedNeverUpdated,
  'last-used-not-a-time': lastUsedNotATime,
  'unused-keys-unlisted': unusedKeysUnlisted,
  'missing-key-name-422': missingKeyName422,
  'last-used-on-reads-only': lastUsedOnReadsOnly,
  'revoked-key-on-retrievals': revokedKeyOnRetrievals,
  'key-create-upsert-by-name': keyCreateUpsertByName,
  'key-name-truncated': keyNameTruncated,
  'key-id-counter-steps-back': keyIdCounterStepsBack,
  'key-list-by-creator': keyListByCreator,
} as const;
