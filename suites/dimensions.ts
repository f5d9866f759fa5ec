import type { ClauseId } from '../src/kit.js';

// The dimensions the checks span, for the table in docs/coverage.md (scripts/coverage.ts). The
// endpoints, methods and credentials of a check come from the run: the exchanges it made, or,
// for a check that judges exchanges made by others, theirs (`judges`). Resource states and value
// classes cannot be read off an exchange: each check declares them here, keyed by its title.
// `CLAUSE_SCOPE` says what each clause's sentence covers; a value it covers that no check of the
// clause visits is a gap in the table.

/** Every value of every dimension, in the order the table lists them. */
export const VOCABULARY = {
  /** Paths under /api/v1/ as the reference profile spells them, `{id}` for an id; the forbidden probe and anything else apart. */
  endpoints: [
    'workspaces',
    'workspaces/{id}',
    'governance_models',
    'governance_models/{id}',
    'records',
    'records/{id}',
    'taxonomies',
    'taxonomies/{id}',
    'fields',
    'fields/{id}',
    'picklists',
    'picklists/{id}',
    'submissions',
    'api_keys',
    'api_keys/{id}',
    'forbidden probe',
    'other paths',
  ],
  methods: ['GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE', 'PATCH'],
  credentials: ['main key', 'second account', 'created key', 'revoked key', 'unknown key', 'none', 'malformed'],
  /**
   * Of the resource a check acts on: a key never used, used, deleted (a missing resource is
   * `deleted` too); of a list: as the run's own writes left it (`after writes`: keys deleted, submissions created).
   */
  states: ['fresh', 'used', 'deleted', 'after writes'],
  /** Of the values a check sends or judges: absent, null, empty (`""`, `{}`, `[]`), at a bound, beyond ASCII, very long or large. */
  values: ['absent', 'null', 'empty', 'boundary', 'unicode', 'huge'],
} as const;

export type Dimension = keyof typeof VOCABULARY;
export type Endpoint = (typeof VOCABULARY.endpoints)[number];
export type Method = (typeof VOCABULARY.methods)[number];
export type Credential = (typeof VOCABULARY.credentials)[number];
export type State = (typeof VOCABULARY.states)[number];
export type ValueClass = (typeof VOCABULARY.values)[number];

/** The endpoints of the API (its document and a profile): "every endpoint" in a clause. */
export const EVERY_ENDPOINT: readonly Endpoint[] = VOCABULARY.endpoints.filter((e) => e !== 'forbidden probe' && e !== 'other paths');
const LISTS: readonly Endpoint[] = ['workspaces', 'governance_models', 'records', 'taxonomies', 'fields', 'picklists', 'submissions', 'api_keys'];
const RETRIEVALS: readonly Endpoint[] = ['workspaces/{id}', 'governance_models/{id}', 'records/{id}', 'taxonomies/{id}', 'fields/{id}', 'picklists/{id}'];

/** What a check declares beyond its requests. */
export interface CheckDimensions {
  readonly states?: readonly State[];
  readonly values?: readonly ValueClass[];
  /** It judges exchanges others made: every exchange of the run, or those of these clauses' checks. */
  readonly judges?: 'run' | readonly ClauseId[];
}

const RUN_WIDE: CheckDimensions = { judges: 'run' };

/**
 * By check title; `*` stands for any text (the per-collection checks), and an exact title wins
 * over a pattern. The generator refuses a check with no entry and an entry with no check.
 */
export const CHECK_DIMENSIONS: Readonly<Record<string, CheckDimensions>> = {
  // GEN
  'an unknown path under /api/v1/ answers JSON': {},
  'an unsupported method answers JSON': {},
  'a path outside any version answers JSON': {},
  'every response of the run is JSON': RUN_WIDE,
  'an endpoint under /api/v2/ is not served as v1': {},
  'an endpoint with no version prefix is not served as v1': {},
  'odd paths and query strings never yield a 5xx, and are refused in JSON': { values: ['boundary', 'unicode', 'huge'] },
  'no response of the run is a 5xx': RUN_WIDE,
  'a body that is not a JSON object is refused with a 4xx error envelope': { values: ['null'] },
  // The HTTP edges (issue 27): an empty last path segment, an absent Content-Type, bodies of
  // several hundred KiB, empty and blank strings.
  'a trailing slash after each list and retrieval path never yields a 5xx': { values: ['empty'] },
  'a POST body without Content-Type, as text/plain or of several hundred KiB never yields a 5xx': { values: ['absent', 'huge'] },
  'empty and blank strings in every string field of every write never yield a 5xx': { values: ['empty'] },
  'a body that is not a JSON object is refused with a 4xx error envelope by key creation too, and without Content-Type or as text/plain': {
    values: ['null', 'absent'],
  },
  'a list response is labelled with a JSON media type': {},
  'every JSON response of the run is labelled with a JSON media type': RUN_WIDE,

  // RES
  "every listed workspace has the document's fields and types": {},
  "every retrieved workspace has the document's fields and types": {},
  "every listed governance model has the document's fields and types": { values: ['null'] },
  "every retrieved governance model has the document's fields and types": { values: ['null'] },
  "every listed record has the document's fields and types": {},
  "every retrieved record has the document's fields and types": {},
  'every listed * can be retrieved by its id': {},
  '* resources list in the envelope and each can be retrieved by id': {},
  '* ids are unique within their collection': { values: ['boundary'] },
  'a retrieved * carries every member of its list item with the same value and type, null included': { values: ['null', 'empty'] },

  // PAG
  'every * list response is the pagination envelope': { values: ['boundary'] },
  'every list response of the run is the pagination envelope': RUN_WIDE,
  '*: no page means page 1 and no limit means 100': { values: ['absent'] },
  '*: page 1 is served and pages 0 and -1 are 422 naming page': { values: ['boundary'] },
  'property: a plain integer page is served up to the last page and is 422 naming page below 1': { values: ['boundary'] },
  '*: limits 1, 100 and 10000 are served and 0, -1 and 10001 are 422 naming limit': { values: ['boundary', 'huge'] },
  'property: a plain integer limit is served from 1 to 10000 and is 422 naming limit outside': { values: ['boundary', 'huge'] },
  '*: a page or limit that is text or a fraction is 422 naming it': {},
  'property: a page or limit that is no integer at all is 422 naming it, never 5xx': { values: ['unicode'] },
  // The walks are made once, by the collection's PAG-1 check, and judged by the three clauses.
  '*: has_more is exact on every page of walks at limits 10000, 100, 7, 1': { judges: ['PAG-1'], values: ['boundary'] },
  '*: total_count items arrive in ceil(total_count/limit) pages of walks at limits 10000, 100, 7, 1': { judges: ['PAG-1'], values: ['boundary'] },
  '*: each id once and every page but the last full of walks at limits 10000, 100, 7, 1': { judges: ['PAG-1'], values: ['boundary'] },
  'an empty list is one page with no items and has_more false': { values: ['empty'] },
  '*: a page past the end is empty with the same total, or 422 naming page': { values: ['boundary'] },
  '*: unusual spellings of page and limit are refused or read as the number they spell': { values: ['empty', 'boundary', 'huge'] },
  'property: unusual spellings are refused naming the parameter or read as exactly the number spelled': { values: ['empty', 'boundary', 'huge'] },
  // The lists the run wrote to, walked again after its writes (issue 27): made once by the PAG-6 check.
  'API keys, after the run deleted its keys: has_more is exact on every page of walks at limits 100, 1': {
    states: ['deleted', 'after writes'],
    values: ['boundary'],
  },
  'API keys, after the run deleted its keys: total_count items arrive in ceil(total_count/limit) pages of walks at limits 100, 1': {
    judges: ['PAG-6'],
    states: ['deleted', 'after writes'],
    values: ['boundary'],
  },
  "submissions, after the run's submissions: has_more is exact on every page of walks at limits 100, 1": { states: ['after writes'], values: ['boundary'] },
  "submissions, after the run's submissions: total_count items arrive in ceil(total_count/limit) pages of walks at limits 100, 1": {
    judges: ['PAG-6'],
    states: ['after writes'],
    values: ['boundary'],
  },

  // AUTH
  'every endpoint answers 401 without the Authorization header': {},
  'another scheme, Bearer with no token, a token without the prefix and extra parts are 401': { values: ['empty'] },
  'a real key with one secret character changed is 401 authentication_error in the error envelope': {},
  'a revoked key is 401 authentication_error in the error envelope': { states: ['deleted'] },
  'an unknown or a revoked key is 401 authentication_error on every write the run makes: POST a submission, POST a key, DELETE a key': {
    states: ['deleted'],
  },
  "the profile's forbidden probe is 403 authorization_error": {},
  'every key the API reveals starts with the key prefix': { states: ['fresh'] },
  "another account's resources are 404 not_found_error to a key, both ways": {},
  "another account's resources never appear in a key's lists": {},
  "a key cannot submit into another account's workspace, named in the query, the body or both": {},
  "another account's key cannot delete this account's key": { states: ['fresh'] },
  'the 401 for a missing or malformed header is JSON with type authentication_error': { judges: ['AUTH-1', 'AUTH-2'], values: ['empty'] },
  'the 401 for an unknown or revoked key has code null and param null': { judges: ['AUTH-3'], states: ['deleted'] },

  // KEY
  'creating a key with a name reveals a complete key that authenticates within 10 s': { states: ['fresh'] },
  'a new key authenticates on its very first request': { states: ['fresh'] },
  "the key list shows a key's name and last-use time and no part of any secret": { states: ['used'] },
  'a key never used is listed too, before its first use, its last-use time null, a time or not shown yet': { states: ['fresh'], values: ['null', 'absent'] },
  "GET on every path the profile declares and on the key's own path, and HEAD and OPTIONS on the key's paths, show no part of a new key's secret, before and after its deletion":
    {
      states: ['fresh', 'used', 'deleted'],
    },
  'no response of the run after a key was created contains a part of its secret': { judges: 'run', states: ['fresh', 'used', 'deleted'] },
  'a deleted key is 401 authentication_error on the very next request, and a second later': { states: ['deleted'] },
  'a deleted key leaves the list, and deleting it again is 404 not_found_error': { states: ['deleted'] },
  'the last-use time of a key moves forward after the key is used': { states: ['used'] },
  'creating a key without name is 400, not 422': { values: ['absent'] },

  // SUB
  'a well-formed submission with the workspace query parameter answers 201': {},
  '* is 422 invalid_request_error naming the input': {},
  'a row without data is 400 or 422 invalid_request_error naming the input': { values: ['absent'] },
  'an id, rows or the workspace query parameter present but empty is refused: 400, 404 for a reference, or 422 naming it': { values: ['null', 'empty'] },
  'for *, path locates the fault*': {},
  "for a row without data, path locates the fault, the row's index included": { values: ['absent'] },
  'listing submissions filtered by workspace or taxonomy narrows the list, and total_count counts the matches': {},
  "after the run's submissions, the lists filtered by the workspace and the taxonomy they went to hold as many items as their total_count says": {
    states: ['after writes'],
  },
  'rows at the boundaries of data (empty data objects alone and beside filled ones, empty arrays, empty strings and nulls inside, the deepest nesting and longest string generated) never get a 5xx, and get 201 where any data object is accepted':
    { values: ['null', 'empty', 'boundary', 'unicode', 'huge'] },
  'generated well-formed rows never get a 5xx, and get 201 where any data object is accepted': { values: ['null', 'empty', 'boundary', 'unicode', 'huge'] },
  'rows at the edges (non-BMP text, right-to-left text, deep nesting, long strings, empty objects) never get a 5xx': {
    values: ['null', 'empty', 'boundary', 'unicode', 'huge'],
  },

  // ERR
  'every error of the run is in the error envelope': RUN_WIDE,
  'every error of the run has a documented type that agrees with its status': RUN_WIDE,
  'each required parameter, omitted in turn, is 400, not 422': { values: ['absent'] },
  'every 422 invalid_request_error of the run names its param': RUN_WIDE,
  'a missing record is 404 not_found_error with code null and param null': { states: ['deleted'] },
  'every other missing resource the profile can retrieve is 404 not_found_error': { states: ['deleted'] },
  'no read-only request of the run was answered with a write-only error type': RUN_WIDE,
  'a 400 for a missing parameter has code missing_param and names the parameter': { values: ['absent'] },
  'an unknown path under /api/v1/ is 404 with the error envelope': {},
  'every other missing resource has code null and param null': { states: ['deleted'] },

  // RATE
  'every authenticated response of the run carries the X-RateLimit headers': RUN_WIDE,
  'every X-RateLimit header of the run is plausible': RUN_WIDE,
  "the request past a key's ceiling is 429 rate_limit_error, rate_limit_exceeded, param null, stating the wait": { values: ['boundary'] },
  'every 429 of the run carries Retry-After in whole seconds and the three X-RateLimit headers': RUN_WIDE,
  'after waiting what Retry-After says, the exhausted key works again': { judges: ['RATE-3'], values: ['boundary'] },
  'exhausting a created key does not throttle the main key': { judges: ['RATE-3'], values: ['boundary'] },
  'the request past the ceiling without a key in one window is 429 rate_limit_error with Retry-After': { values: ['boundary'] },
  'X-RateLimit-Remaining falls with each sequential request of a key': RUN_WIDE,
  'Retry-After appears on 429 responses only': RUN_WIDE,
};

/**
 * What each clause's sentence covers (clauses.md), where it names a dimension: "every endpoint",
 * "unknown paths and unsupported methods", "missing or malformed", "unknown or revoked", "null",
 * "empty objects", "long strings"... A clause that names none has no entry.
 */
export const CLAUSE_SCOPE: Readonly<Partial<Record<ClauseId, Readonly<Partial<Record<Dimension, readonly string[]>>>>>> = {
  'GEN-1': {
    endpoints: [...EVERY_ENDPOINT, 'other paths'],
    methods: ['GET', 'HEAD', 'POST', 'DELETE', 'PATCH'],
    credentials: ['main key', 'none', 'malformed'],
  },
  'GEN-3': { values: ['absent', 'null', 'empty', 'boundary', 'unicode', 'huge'], credentials: ['malformed'] },
  'GEN-4': { methods: ['POST'], values: ['null'] },
  'RES-1': { endpoints: ['workspaces', 'workspaces/{id}'] },
  'RES-2': { endpoints: ['governance_models', 'governance_models/{id}'], values: ['null'] },
  'RES-3': { endpoints: ['records', 'records/{id}'] },
  'RES-4': { endpoints: ['workspaces', 'workspaces/{id}', 'governance_models', 'governance_models/{id}', 'records', 'records/{id}'] },
  'RES-5': { endpoints: ['taxonomies', 'taxonomies/{id}', 'fields', 'fields/{id}', 'picklists', 'picklists/{id}'] },
  'RES-6': { endpoints: ['workspaces', 'governance_models', 'records', 'taxonomies', 'fields', 'picklists'] },
  'RES-7': { endpoints: RETRIEVALS, values: ['null', 'empty'] },
  'PAG-1': { endpoints: LISTS },
  'PAG-2': { endpoints: LISTS, values: ['absent'] },
  'PAG-3': { endpoints: LISTS, values: ['boundary'] },
  'PAG-4': { endpoints: LISTS, values: ['boundary', 'huge'] },
  'PAG-5': { endpoints: LISTS },
  // The lists the run writes to are judged again as its writes left them (issue 27, class 6).
  'PAG-6': { endpoints: LISTS, states: ['after writes'] },
  'PAG-7': { endpoints: LISTS, states: ['after writes'], values: ['empty'] },
  'PAG-8': { endpoints: LISTS },
  'PAG-9': { endpoints: LISTS, values: ['boundary'] },
  'PAG-10': { endpoints: LISTS, values: ['empty', 'boundary', 'huge'] },
  'AUTH-1': { endpoints: EVERY_ENDPOINT, methods: ['GET', 'POST', 'DELETE'], credentials: ['none'] },
  'AUTH-2': { credentials: ['malformed'], values: ['empty'] },
  // "Every request": the methods the run itself uses, writes included (issue 27).
  'AUTH-3': { methods: ['GET', 'POST', 'DELETE'], credentials: ['unknown key', 'revoked key'], states: ['deleted'] },
  'AUTH-4': { endpoints: ['forbidden probe'] },
  'AUTH-5': { endpoints: ['api_keys'], methods: ['POST'] },
  'AUTH-6': { endpoints: EVERY_ENDPOINT, methods: ['GET', 'POST', 'DELETE'], credentials: ['main key', 'second account'] },
  'AUTH-7': { credentials: ['none', 'malformed'] },
  'AUTH-8': { credentials: ['unknown key', 'revoked key'] },
  'KEY-1': { endpoints: ['api_keys'], methods: ['POST'], credentials: ['created key'], states: ['fresh'] },
  'KEY-2': { credentials: ['created key'], states: ['fresh'] },
  'KEY-3': { endpoints: ['api_keys'], states: ['fresh', 'used'], values: ['null'] },
  'KEY-4': {
    endpoints: [...EVERY_ENDPOINT, 'forbidden probe'],
    methods: ['GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE'],
    credentials: ['main key', 'created key', 'revoked key'],
    states: ['fresh', 'used', 'deleted'],
  },
  'KEY-5': { endpoints: ['api_keys/{id}'], methods: ['DELETE'], credentials: ['revoked key'], states: ['deleted'] },
  'KEY-6': { endpoints: ['api_keys', 'api_keys/{id}'], methods: ['DELETE'], states: ['deleted'] },
  'KEY-7': { credentials: ['created key'], states: ['used'] },
  'KEY-8': { endpoints: ['api_keys'], methods: ['POST'], values: ['absent'] },
  'SUB-1': { endpoints: ['submissions'], methods: ['POST'] },
  'SUB-2': { endpoints: ['submissions'], methods: ['POST'], values: ['absent'] },
  'SUB-4': { endpoints: ['submissions'], methods: ['GET', 'POST'], states: ['after writes'] },
  'SUB-5': { endpoints: ['submissions'], methods: ['POST'], values: ['null', 'empty', 'boundary', 'unicode', 'huge'] },
  'ERR-3': { values: ['absent'] },
  'ERR-5': { endpoints: RETRIEVALS, states: ['deleted'] },
  'ERR-6': { methods: ['GET', 'HEAD'] },
  'ERR-7': { values: ['absent'] },
  'ERR-8': { endpoints: ['other paths'] },
  'ERR-9': { endpoints: RETRIEVALS.filter((e) => e !== 'records/{id}'), states: ['deleted'] },
  'RATE-1': { credentials: ['main key', 'second account', 'created key'], methods: ['GET', 'POST', 'DELETE'] },
  // "All authenticated requests": the exhausting burst takes several routes in turn (issue 27, class 7).
  'RATE-3': { endpoints: ['workspaces', 'governance_models', 'records', 'api_keys'], values: ['boundary'] },
  'RATE-6': { credentials: ['main key', 'created key'] },
  'RATE-7': { credentials: ['none'], values: ['boundary'] },
};
