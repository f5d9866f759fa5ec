import chunkedBodies from '../chunked-bodies.js';
import connectionClose from '../connection-close.js';
import extraHeaders from '../extra-headers.js';
import extraMembersEnvelope from '../extra-members-envelope.js';
import extraMembersErrors from '../extra-members-errors.js';
import extraMembersResources from '../extra-members-resources.js';
import gzipWhenAsked from '../gzip-when-asked.js';
import idsDigits from '../ids-digits.js';
import idsPrefixed from '../ids-prefixed.js';
import idsUuid from '../ids-uuid.js';
import listOrderByName from '../list-order-by-name.js';
import listOrderNewestFirst from '../list-order-newest-first.js';
import listOrderUnstableTies from '../list-order-unstable-ties.js';

/** Variants of list order, identifiers, extra members and HTTP transport. */
export const LIST_VARIANTS = {
  'list-order-newest-first': listOrderNewestFirst,
  'list-order-by-name': listOrderByName,
  'list-order-unstable-ties': listOrderUnstableTies,
  'ids-uuid': idsUuid,
  'ids-digits': idsDigits,
  'ids-prefixed': idsPrefixed,
  'extra-members-resources': extraMembersResources,
  'extra-members-envelope': extraMembersEnvelope,
  'extra-members-errors': extraMembersErrors,
  'extra-headers': extraHeaders,
  'gzip-when-asked': gzipWhenAsked,
  'connection-close': connectionClose,
  'chunked-bodies': chunkedBodies,
} as const;
