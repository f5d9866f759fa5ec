import defaultLimitFifty from '../default-limit-fifty.js';
import exponentParseInt from '../exponent-parse-int.js';
import filteredHasMoreUnfiltered from '../filtered-has-more-unfiltered.js';
import hasMoreOffByOne from '../has-more-off-by-one.js';
import keyTotalCountsDeleted from '../key-total-counts-deleted.js';
import limitParseCrash from '../limit-parse-crash.js';
import limitZeroUnbounded from '../limit-zero-unbounded.js';
import maxLimitRefused from '../max-limit-refused.js';
import overMaxLimitClamped from '../over-max-limit-clamped.js';
import pageBoundaryOverlap from '../page-boundary-overlap.js';
import pagePastEnd404 from '../page-past-end-404.js';
import pageOffset32Bit from '../page-offset-32-bit.js';
import pageZeroAsFirst from '../page-zero-as-first.js';
import repeatedParamCrash from '../repeated-param-crash.js';
import totalCountAsString from '../total-count-as-string.js';
import totalCountPageOnly from '../total-count-page-only.js';
import unstableListOrder from '../unstable-list-order.js';

/** Mutants of the PAG family. */
export const PAGINATION_MUTANTS = {
  'has-more-off-by-one': hasMoreOffByOne,
  'total-count-page-only': totalCountPageOnly,
  'page-boundary-overlap': pageBoundaryOverlap,
  'max-limit-refused': maxLimitRefused,
  'over-max-limit-clamped': overMaxLimitClamped,
  'page-zero-as-first': pageZeroAsFirst,
  'limit-parse-crash': limitParseCrash,
  'default-limit-fifty': defaultLimitFifty,
  'page-past-end-404': pagePastEnd404,
  'page-offset-32-bit': pageOffset32Bit,
  'exponent-parse-int': exponentParseInt,
  'repeated-param-crash': repeatedParamCrash,
  'limit-zero-unbounded': limitZeroUnbounded,
  'total-count-as-string': totalCountAsString,
  'unstable-list-order': unstableListOrder,
  'key-total-counts-deleted': keyTotalCountsDeleted,
  'filtered-has-more-unfiltered': filteredHasMoreUnfiltered,
} as const;
