import crashOnLongId from './crash-on-long-id.js';
import duplicateFieldIds from './duplicate-field-ids.js';
import governanceModelDescriptionOmitted from './governance-model-description-omitted.js';
import htmlErrorPages from './html-error-pages.js';
import invalidJson500 from './invalid-json-500.js';
import type { Mutant } from './mutant.js';
import picklistRetrievalMissing from './picklist-retrieval-missing.js';
import recordDataAsString from './record-data-as-string.js';
import recordRetrievalMissing from './record-retrieval-missing.js';
import retrievalStaleName from './retrieval-stale-name.js';
import textPlainJson from './text-plain-json.js';
import versionPrefixIgnored from './version-prefix-ignored.js';
import workspaceDescriptionNull from './workspace-description-null.js';

/** Every mutant, by the name of its file. */
export const MUTANTS = {
  'html-error-pages': htmlErrorPages,
  'version-prefix-ignored': versionPrefixIgnored,
  'crash-on-long-id': crashOnLongId,
  'invalid-json-500': invalidJson500,
  'text-plain-json': textPlainJson,
  'workspace-description-null': workspaceDescriptionNull,
  'governance-model-description-omitted': governanceModelDescriptionOmitted,
  'record-data-as-string': recordDataAsString,
  'record-retrieval-missing': recordRetrievalMissing,
  'picklist-retrieval-missing': picklistRetrievalMissing,
  'duplicate-field-ids': duplicateFieldIds,
  'retrieval-stale-name': retrievalStaleName,
} as const satisfies Record<string, Mutant>;

export type MutantName = keyof typeof MUTANTS;

/**
 * Mutants the suite is known not to catch, each with the reason. A mutant that survives and is
 * not listed here fails `npm test`.
 */
export const KNOWN_SURVIVORS: Partial<Record<MutantName, string>> = {};
