import dataNotObjectAccepted from '../data-not-object-accepted.js';
import deepNesting500 from '../deep-nesting-500.js';
import emptyData500 from '../empty-data-500.js';
import nonBmp500 from '../non-bmp-500.js';
import rowPathWithoutIndex from '../row-path-without-index.js';
import rowsNotArrayAccepted from '../rows-not-array-accepted.js';
import submissionCreated200 from '../submission-created-200.js';
import submissionFiltersIgnored from '../submission-filters-ignored.js';
import submissionFiltersNotCombined from '../submission-filters-not-combined.js';
import submissionTotalIgnoresFilter from '../submission-total-ignores-filter.js';
import memberNamesAsMapKeys from '../member-names-as-map-keys.js';

/** Mutants of the SUB family. */
export const SUBMISSION_MUTANTS = {
  'row-path-without-index': rowPathWithoutIndex,
  'rows-not-array-accepted': rowsNotArrayAccepted,
  'data-not-object-accepted': dataNotObjectAccepted,
  'non-bmp-500': nonBmp500,
  'deep-nesting-500': deepNesting500,
  'empty-data-500': emptyData500,
  'submission-filters-ignored': submissionFiltersIgnored,
  'submission-total-ignores-filter': submissionTotalIgnoresFilter,
  'submission-created-200': submissionCreated200,
  'submission-filters-not-combined': submissionFiltersNotCombined,
  'member-names-as-map-keys': memberNamesAsMapKeys,
} as const;
