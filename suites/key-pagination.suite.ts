import { keyListSettled } from './support/key-list-settled.js';
import { paginationOfList } from './support/list-pagination.js';

// PAG on the API keys list (API document, Pagination envelope; Pagination parameters): the checks
// suites/pagination.suite.ts makes of every other list. Any suite may create a key (odd bodies sent
// to every write), so this list is walked first, alone, before any suite writes
// (src/check/suite-order.ts); after-writes walks it again once the run deleted its keys. It is
// walked once it shows the keys the run made before (a list from an index may show them late).
paginationOfList('apiKeys', keyListSettled);
