/**
 * What API v1 leaves open: each fact the document marks "not shown", and each behaviour it does
 * not fix. A conformant implementation may choose any answer; every variant (`variants/`) names
 * the open point it chooses differently from the reference, with the document section.
 */
export const OPEN_POINTS = {
  'auth-401-shape': { section: 'Authentication, rule 9', text: 'Shape of the 401 for a missing or malformed Authorization header (not shown)' },
  'key-operations': { section: 'Details and open points', text: 'Success statuses and response member names of the key operations (not shown)' },
  'key-prefix': { section: 'Authentication, rule 2', text: 'The fixed key prefix <KEY_PREFIX> (not shown)' },
  'key-paths': { section: 'Details and open points', text: 'Paths and request shapes for listing and deleting keys (not shown)' },
  'submission-response': { section: 'Details and open points', text: 'Submission creation: the response body (not shown)' },
  'submission-list': { section: 'Details and open points', text: 'Path and parameter names of the submission list (not shown)' },
  'workspace-param': { section: 'Details and open points', text: 'Submission creation: the name of the workspace query parameter (not shown)' },
  'required-body-fields': { section: 'Details and open points', text: 'Submission creation: which body fields are required (not shown)' },
  'catalogue-payloads': { section: 'Other resources', text: 'Fields of taxonomy, field and picklist resources (not shown)' },
  'record-states': { section: 'States and transitions', text: 'The set of record states (not shown)' },
  'error-400-type': { section: 'Errors, rule 1', text: 'The error type of the 400 for a missing parameter (not shown)' },
  'error-codes': { section: 'Errors, rule 2', text: 'The complete list of codes (not shown)' },
  'error-statuses': { section: 'Errors, rule 3', text: 'HTTP statuses of account_locked and conflict_error (not shown)' },
  'list-order': { section: 'Pagination envelope', text: 'The order of the items of a list (not stated)' },
  'id-format': { section: 'Resources and their fields', text: 'The format of identifiers, beyond being strings (not stated)' },
  'extra-members': { section: 'Resources and their fields; Errors', text: 'Members beyond those listed, in resources, envelopes and errors (not excluded)' },
  'http-transport': { section: 'What the service does', text: 'HTTP details: extra headers, compression, connection reuse, transfer encoding (not stated)' },
  'rate-algorithm': {
    section: 'Limits',
    text: 'How a window is kept: fixed from the first request, aligned on the clock, sliding, a token bucket (not stated)',
  },
  'server-clock': {
    section: 'Limits',
    text: "Whose clock the Unix time of X-RateLimit-Reset is on: the server's, which may be minutes from the client's (not stated)",
  },
  'reset-rounding': {
    section: 'Limits',
    text: "How X-RateLimit-Reset's Unix time, in whole seconds, rounds a window's end: up or down (not stated)",
  },
  'rate-ceiling': { section: 'Limits', text: "A dedicated deployment's own per-key ceiling (declared in the profile)" },
  'last-use-format': {
    section: 'Other resources',
    text: 'How the last-use time is written: a date-time string, or a Unix time in seconds or milliseconds (not stated)',
  },
  'retrieval-payloads': { section: 'Details and open points', text: 'Path and payload of the retrievals (not shown)' },
  'last-use-timing': { section: 'Other resources', text: 'When the last-use time is written (not stated)' },
  'key-last-use-none': { section: 'Other resources', text: 'How the key list shows that a key was never used: a null last-use time or no member (not stated)' },
  'key-propagation': { section: 'Details and open points', text: 'How soon a new key takes effect (not stated; KEY-1 allows 10 s)' },
  'empty-values': { section: 'Errors, rule 1', text: 'Whether an empty value is missing, invalid, or a reference to nothing (not stated)' },
  'malformed-body-status': { section: 'Errors', text: 'The status of a body that is not valid JSON: 400 or 422 (not stated)' },
  'page-past-end': { section: 'Pagination parameters', text: 'A page past the end: no upper bound of page is stated' },
  'other-methods': { section: 'Operations', text: 'HEAD, OPTIONS and other methods on the documented paths (not stated)' },
  'trailing-slash': { section: 'Operations', text: 'A path with a trailing slash (not stated)' },
  'unknown-query-params': { section: 'Operations', text: 'Query parameters the endpoint does not know (not stated)' },
  'input-lengths': { section: 'Resources and their fields', text: 'The longest value a string input, such as a key name, may hold (not stated)' },
  'key-name-uniqueness': { section: 'Other resources', text: "Whether a key's name must differ from those of the account's live keys (not stated)" },
  'account-data': { section: 'Authentication, rule 3', text: "The size and content of another account's data (not stated)" },
} as const;

export type OpenPoint = keyof typeof OPEN_POINTS;
