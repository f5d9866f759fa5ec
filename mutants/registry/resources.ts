import catalogueRetrievalDropsNulls from '../catalogue-retrieval-drops-nulls.js';
import duplicateFieldIds from '../duplicate-field-ids.js';
import governanceModelDescriptionOmitted from '../governance-model-description-omitted.js';
import picklistRetrievalMissing from '../picklist-retrieval-missing.js';
import recordDataAsString from '../record-data-as-string.js';
import recordRetrievalMissing from '../record-retrieval-missing.js';
import retrievalStaleName from '../retrieval-stale-name.js';
import workspaceDescriptionNull from '../workspace-description-null.js';

/** Mutants of the RES family. */
export const RESOURCE_MUTANTS = {
  'workspace-description-null': workspaceDescriptionNull,
  'governance-model-description-omitted': governanceModelDescriptionOmitted,
  'record-data-as-string': recordDataAsString,
  'record-retrieval-missing': recordRetrievalMissing,
  'picklist-retrieval-missing': picklistRetrievalMissing,
  'duplicate-field-ids': duplicateFieldIds,
  'retrieval-stale-name': retrievalStaleName,
  'catalogue-retrieval-drops-nulls': catalogueRetrievalDropsNulls,
} as const;
