/**
 * The clause catalogue of API v1, as data. Every check names exactly one of these IDs; every
 * report is organised by them. An ID never changes meaning once published: retire, never reuse.
 *
 * `needs` lists the facts a clause depends on that the API document leaves open ("not shown")
 * and the deployment profile declares, or settings the run must be given. A clause whose needs
 * are undeclared is not applicable (see `applicability.ts`).
 */

export const NEEDS = {
  retrievalPaths: 'retrieval paths (paths.workspace, paths.governanceModel, paths.record)',
  taxonomyPaths: 'taxonomy, field and picklist paths (paths.taxonomies … paths.picklist)',
  forbiddenProbe: 'a forbidden probe (forbiddenProbe)',
  keyPrefix: 'the key prefix (keyPrefix)',
  otherAccountKey: "a second account's key (CONFORMANCE_OTHER_ACCOUNT_API_KEY)",
  keyListPath: 'the key list path (paths.apiKeyList)',
  keyPath: 'the key path (paths.apiKey)',
  keyFieldNames: 'key field names (apiKeyFields)',
  workspaceQueryParam: 'the workspace query parameter (submissions.workspaceQueryParam)',
  submissionListPath: 'the submission list path (paths.submissionList)',
  filterNames: 'submission filter names (submissions.listFilters)',
  requiredFields: 'required fields (submissions.requiredBodyFields, workspaceQueryParamRequired)',
  recordPath: 'the record path (paths.record)',
} as const;

export type Need = keyof typeof NEEDS;
export type Level = 'MUST' | 'SHOULD';

export interface ClauseDefinition {
  readonly level: Level;
  readonly needs: readonly Need[];
  /** The document section the clause comes from. */
  readonly section: string;
  /** The clause in our own words. */
  readonly summary: string;
}

const GENERAL = 'What the service does; Versioning';
const RESOURCES = 'Resources and their fields';
const PAGINATION = 'Pagination envelope; Pagination parameters';
const AUTHENTICATION = 'Authentication';
const KEYS = 'Other resources; Details and open points; Authentication';
const SUBMISSIONS = 'Submission; Operations';
const ERRORS = 'Errors';
const LIMITS = 'Limits';

export const CLAUSES = {
  'GEN-1': {
    level: 'MUST',
    needs: [],
    section: GENERAL,
    summary: 'Every response body is JSON, errors, unknown paths and unsupported methods included (204 and HEAD exempt).',
  },
  'GEN-2': { level: 'SHOULD', needs: [], section: GENERAL, summary: 'The version lives in the path: the same endpoint under /api/v2/ is not served as v1.' },
  'GEN-3': { level: 'SHOULD', needs: [], section: GENERAL, summary: 'No client input, however malformed, produces a 5xx.' },
  'GEN-4': { level: 'SHOULD', needs: [], section: GENERAL, summary: 'A body that is not JSON, or not a JSON object, is refused with a 4xx error envelope.' },
  'GEN-5': {
    level: 'SHOULD',
    needs: [],
    section: GENERAL,
    // Revised: a structured +json type (RFC 6839) was warned before, though the document asks only for JSON.
    summary: 'JSON responses carry a JSON media type: application/json or a structured +json type such as application/hal+json (parameters allowed).',
  },

  'RES-1': { level: 'MUST', needs: [], section: RESOURCES, summary: 'A workspace carries id, name and description, all strings.' },
  'RES-2': {
    level: 'MUST',
    needs: [],
    section: RESOURCES,
    summary: 'A governance model carries string id and name, and a description that is a string or null.',
  },
  'RES-3': { level: 'MUST', needs: [], section: RESOURCES, summary: 'A record carries string id, status and service_id, and an object data.' },
  'RES-4': {
    level: 'MUST',
    needs: ['retrievalPaths'],
    section: RESOURCES,
    summary: 'Every listed workspace, governance model and record can be fetched by id (200).',
  },
  'RES-5': {
    level: 'MUST',
    needs: ['taxonomyPaths'],
    section: RESOURCES,
    summary: 'Taxonomies, fields and picklists list in the pagination envelope and each listed one can be fetched by id.',
  },
  'RES-6': { level: 'SHOULD', needs: [], section: RESOURCES, summary: 'Identifiers are unique within a collection.' },
  'RES-7': { level: 'SHOULD', needs: ['retrievalPaths'], section: RESOURCES, summary: 'A fetched resource has the same fields and values as its list item.' },

  'PAG-1': { level: 'MUST', needs: [], section: PAGINATION, summary: 'Every list answers {items: array, has_more: boolean, total_count: integer >= 0}.' },
  'PAG-2': { level: 'MUST', needs: [], section: PAGINATION, summary: 'Without page the first page is served; without limit, 100 items per page.' },
  'PAG-3': { level: 'MUST', needs: [], section: PAGINATION, summary: 'page starts at 1; below 1 is 422 invalid_request_error with param "page".' },
  'PAG-4': { level: 'MUST', needs: [], section: PAGINATION, summary: 'limit 1..10000 is accepted; outside it, 422 invalid_request_error with param "limit".' },
  'PAG-5': { level: 'MUST', needs: [], section: PAGINATION, summary: 'A page or limit that is not an integer at all is 422 invalid_request_error naming it.' },
  'PAG-6': { level: 'MUST', needs: [], section: PAGINATION, summary: 'has_more is true exactly when further pages follow.' },
  'PAG-7': {
    level: 'MUST',
    needs: [],
    section: PAGINATION,
    summary: 'total_count counts across pages: a walk yields total_count items in ceil(total_count/limit) pages.',
  },
  'PAG-8': {
    level: 'SHOULD',
    needs: [],
    section: PAGINATION,
    summary: 'A walk of a still collection sees each resource once, and every page but the last is full.',
  },
  'PAG-9': {
    level: 'SHOULD',
    needs: [],
    section: PAGINATION,
    summary: 'A page past the end is 200 with no items, has_more false and the same total, or 422 naming page.',
  },
  'PAG-10': {
    level: 'SHOULD',
    needs: [],
    section: PAGINATION,
    summary: 'An unusual spelling of page or limit is refused with 422 naming it, or read as exactly the number it spells.',
  },

  'AUTH-1': { level: 'MUST', needs: [], section: AUTHENTICATION, summary: 'Every endpoint wants Authorization: Bearer; without the header, 401.' },
  'AUTH-2': { level: 'MUST', needs: [], section: AUTHENTICATION, summary: 'A malformed Authorization header is 401.' },
  'AUTH-3': {
    level: 'MUST',
    needs: [],
    section: AUTHENTICATION,
    summary: 'A well-formed but unknown or revoked key is 401 authentication_error in the error envelope.',
  },
  'AUTH-4': { level: 'MUST', needs: ['forbiddenProbe'], section: AUTHENTICATION, summary: 'A valid key without permission gets 403 authorization_error.' },
  'AUTH-5': { level: 'MUST', needs: ['keyPrefix'], section: AUTHENTICATION, summary: 'Every key the API reveals starts with the fixed prefix.' },
  'AUTH-6': {
    level: 'MUST',
    needs: ['otherAccountKey'],
    section: AUTHENTICATION,
    summary: "A key sees only its own account: another account's resource is 404 and absent from lists.",
  },
  'AUTH-7': {
    level: 'MUST',
    needs: [],
    section: AUTHENTICATION,
    summary: 'The 401 for a missing or malformed header is JSON with authentication_error as the value of some member, at any depth.',
  },
  'AUTH-8': { level: 'SHOULD', needs: [], section: AUTHENTICATION, summary: 'The 401 for an unknown or revoked key has code null and param null.' },

  'KEY-1': { level: 'MUST', needs: [], section: KEYS, summary: 'Creating a key succeeds and reveals the complete key, which authenticates within 10 s.' },
  'KEY-2': { level: 'SHOULD', needs: [], section: KEYS, summary: 'A new key authenticates on its very first request.' },
  'KEY-3': {
    level: 'MUST',
    needs: ['keyListPath', 'keyFieldNames'],
    section: KEYS,
    summary: 'The key list shows name and last-use time and never a part of a secret.',
  },
  'KEY-4': { level: 'MUST', needs: [], section: KEYS, summary: 'After creation, no response of the run contains a part of the secret.' },
  'KEY-5': {
    level: 'MUST',
    needs: ['keyPath'],
    section: KEYS,
    summary: 'Deleting a key revokes it: the very next request with it is 401 authentication_error.',
  },
  'KEY-6': {
    level: 'SHOULD',
    needs: ['keyPath', 'keyListPath'],
    section: KEYS,
    summary: 'A deleted key leaves the list; deleting it again is 404 not_found_error.',
  },
  'KEY-7': { level: 'SHOULD', needs: ['keyListPath', 'keyFieldNames'], section: KEYS, summary: 'The last-use time moves forward after the key is used.' },
  'KEY-8': { level: 'SHOULD', needs: [], section: KEYS, summary: 'Creating a key without name is 400, not 422.' },

  'SUB-1': {
    level: 'MUST',
    needs: ['workspaceQueryParam'],
    section: SUBMISSIONS,
    summary: 'A well-formed submission with the workspace query parameter answers 201.',
  },
  'SUB-2': {
    level: 'MUST',
    needs: ['workspaceQueryParam'],
    section: SUBMISSIONS,
    summary: 'An invalid body value is 422 invalid_request_error naming it (a row without data may be 400).',
  },
  'SUB-3': {
    level: 'SHOULD',
    needs: ['workspaceQueryParam'],
    section: SUBMISSIONS,
    summary: "For a fault inside the body, path locates it, the row's index included.",
  },
  'SUB-4': {
    level: 'MUST',
    needs: ['submissionListPath', 'filterNames'],
    section: SUBMISSIONS,
    summary: 'Submissions list and filter by workspace and taxonomy; filters narrow and total_count counts matches.',
  },
  'SUB-5': {
    level: 'SHOULD',
    needs: ['workspaceQueryParam'],
    section: SUBMISSIONS,
    summary: 'Generated well-formed rows never get a 5xx, and get 201 where any data object is accepted.',
  },

  'ERR-1': {
    level: 'MUST',
    needs: [],
    section: ERRORS,
    summary: 'A failed request answers {error: {type, code, message, param, path}} with the documented types.',
  },
  'ERR-2': {
    level: 'MUST',
    needs: [],
    section: ERRORS,
    summary: "Status and error type agree for the document's statuses, and every type is a documented one.",
  },
  'ERR-3': {
    level: 'MUST',
    needs: ['requiredFields'],
    section: ERRORS,
    summary:
      'A genuinely missing required parameter is 400, not 422 (only absence is judged: an empty string may be read as missing, invalid or an unknown reference).',
  },
  'ERR-4': { level: 'MUST', needs: [], section: ERRORS, summary: 'Every 422 invalid_request_error names the offending input in param.' },
  'ERR-5': {
    level: 'MUST',
    needs: ['recordPath'],
    section: ERRORS,
    summary: 'A missing resource is 404 not_found_error; a missing record has code null and param null.',
  },
  'ERR-6': { level: 'MUST', needs: [], section: ERRORS, summary: 'Read-only endpoints never answer plan_limit_exceeded, account_locked or conflict_error.' },
  'ERR-7': { level: 'SHOULD', needs: [], section: ERRORS, summary: 'A 400 for a missing parameter has code missing_param and names it in param.' },
  'ERR-8': { level: 'SHOULD', needs: [], section: ERRORS, summary: 'An unknown path under /api/v1/ is 404 in the error envelope.' },
  'ERR-9': { level: 'SHOULD', needs: ['retrievalPaths'], section: ERRORS, summary: 'Every other missing resource also has code null and param null.' },

  'RATE-1': {
    level: 'SHOULD',
    needs: [],
    section: LIMITS,
    summary: 'Authenticated responses generally (every success) carry X-RateLimit-Limit, -Remaining and -Reset, as integers wherever sent.',
  },
  'RATE-2': {
    level: 'MUST',
    needs: [],
    section: LIMITS,
    summary: 'Where sent, Limit is the per-key ceiling, 0 <= Remaining <= Limit, Reset a Unix time at most one window ahead.',
  },
  'RATE-3': {
    level: 'MUST',
    needs: [],
    section: LIMITS,
    summary: 'Past the ceiling: 429 rate_limit_error, code rate_limit_exceeded, param null, message stating the wait.',
  },
  'RATE-4': { level: 'MUST', needs: [], section: LIMITS, summary: 'Every 429 carries Retry-After in whole seconds and the three X-RateLimit headers.' },
  'RATE-5': { level: 'SHOULD', needs: [], section: LIMITS, summary: 'After waiting Retry-After seconds the key works again.' },
  'RATE-6': { level: 'MUST', needs: [], section: LIMITS, summary: 'Limits are per key: one exhausted key does not throttle another.' },
  'RATE-7': {
    level: 'MUST',
    needs: [],
    section: LIMITS,
    // Revised: the per-IP budget may also count failed credentials, never a valid key's requests.
    summary:
      'Requests without Authorization are limited to 20 a window per IP; past it, 429 with Retry-After. The budget may also count requests whose credential fails, never those with a valid key: an early 429 is a finding only in a window with no failed credential from this IP.',
  },
  'RATE-8': { level: 'SHOULD', needs: [], section: LIMITS, summary: 'Within a window, X-RateLimit-Remaining falls by one per sequential request of a key.' },
  'RATE-9': { level: 'SHOULD', needs: [], section: LIMITS, summary: 'Retry-After is sent on 429 responses only.' },
} as const satisfies Record<string, ClauseDefinition>;

export type ClauseId = keyof typeof CLAUSES;

export const FAMILIES = ['GEN', 'RES', 'PAG', 'AUTH', 'KEY', 'SUB', 'ERR', 'RATE'] as const;
export type Family = (typeof FAMILIES)[number];

export const CLAUSE_IDS = Object.keys(CLAUSES) as ClauseId[];

/** Bumped whenever a clause is added or retired; reports carry it. */
export const CATALOGUE_VERSION = '1.2.0';

export function isClauseId(value: string): value is ClauseId {
  return Object.hasOwn(CLAUSES, value);
}

export function familyOf(id: ClauseId): Family {
  return id.slice(0, id.indexOf('-')) as Family;
}

/** Said in every report so nobody reads more into a pass than it proves (clause catalogue). */
export const UNVERIFIABLE_STATEMENTS = [
  'Keys are stored only as a secure hash.',
  'Only account owners and admins can create or delete keys (a key acts as its account).',
  'A key keeps working after the person who made it leaves.',
  "Keys cannot reach admin-only endpoints beyond the profile's forbidden probe.",
  'plan_limit_exceeded names the feature in param (no request is known to provoke it).',
  'The web app sign-in rules.',
  'The limits the document leaves open (rows per submission, body size).',
] as const;
