import { paginationOfList } from './support/list-pagination.js';

// PAG on the API keys list (API document, Pagination envelope; Pagination parameters): the checks
// suites/pagination.suite.ts makes of every other list. The run creates and deletes keys while the
// other lists are walked, so this list is walked first in the lane that writes keys, before any of
// its suites does (src/run/suite-order.ts); after-writes walks it again once the run deleted its keys.
paginationOfList('apiKeys');
