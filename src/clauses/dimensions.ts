import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.js';
import type { ClauseId } from './catalogue.js';

// The dimensions a check can span, for the tables in docs/coverage.md (scripts/coverage.ts), what
// each clause's sentence reaches (`CLAUSE_SCOPE`), and why a value it reaches is not visited
// (`NOT_REACHED`). The endpoints, methods, credentials, request bodies and response statuses of a
// check come from the run: the exchanges it made, or, for a check that judges exchanges made by
// others, theirs (`judges`). Resource states, value classes and filter combinations cannot be read
// off an exchange: each check declares them in its own options (`check(..., { key, states, values,
// filters, judges })`, src/check/check.ts). A value a clause reaches that no check of the clause
// visits is a gap: it carries its reason here, or `npm run coverage` refuses to write the table.

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
   * Of a request's body, as scripts/support/exchange-tap.mjs classes it: labelled application/json
   * (or +json) and a JSON object, or not one (not JSON at all, or an array, a string, null); sent
   * without Content-Type; labelled otherwise (text/plain); and, besides its label, over 100 KiB.
   */
  bodies: ['JSON object', 'not a JSON object', 'no Content-Type', 'other Content-Type', 'over 100 KiB'],
  /** Of the responses a check got or judged: a success, a refusal other than 429 (4xx), a 429. */
  statuses: ['2xx', '4xx', '429'],
  /**
   * Of the resource a check acts on: a key never used, used (read with), used only to write with
   * (it created or deleted something, and never read), deleted, that is revoked (a missing resource
   * is `deleted` too); of a list: as the run's own writes left it (`after writes`: keys deleted,
   * submissions created).
   */
  states: ['fresh', 'used', 'used to write', 'deleted', 'after writes'],
  /**
   * Of the values a check sends or judges: absent, null, empty (`""`, `{}`, `[]`), at a bound,
   * beyond ASCII, very long or large; `long`: a string past a common storage bound (256 characters,
   * one past VARCHAR(255)); `repeated`: a value an existing resource already has (a key's name).
   */
  values: ['absent', 'null', 'empty', 'boundary', 'unicode', 'huge', 'long', 'repeated'],
  /** Of a filtered list (the submission list's workspace and taxonomy filters): none, each alone, both together. */
  filters: ['none', 'each alone', 'together'],
} as const;

export type Dimension = keyof typeof VOCABULARY;
export type Endpoint = (typeof VOCABULARY.endpoints)[number];
export type Method = (typeof VOCABULARY.methods)[number];
export type Credential = (typeof VOCABULARY.credentials)[number];
export type BodyClass = (typeof VOCABULARY.bodies)[number];
export type State = (typeof VOCABULARY.states)[number];
export type ValueClass = (typeof VOCABULARY.values)[number];
export type StatusClass = (typeof VOCABULARY.statuses)[number];
export type FilterCombination = (typeof VOCABULARY.filters)[number];

/** The dimensions a check declares in its options; the others are read off its exchanges. */
export const DECLARED: readonly Dimension[] = ['states', 'values', 'filters'];

/** The class of a response status, as VOCABULARY.statuses names it; null for one no clause reaches by class (1xx, 3xx, 5xx). */
export function statusClass(status: number): StatusClass | null {
  if (status === 429) return '429';
  if (status >= 200 && status < 300) return '2xx';
  if (status >= 400 && status < 500) return '4xx';
  return null;
}

/** The endpoints of the API (its document and a profile): "every endpoint" in a clause. */
export const EVERY_ENDPOINT: readonly Endpoint[] = VOCABULARY.endpoints.filter((e) => e !== 'forbidden probe' && e !== 'other paths');
const LISTS: readonly Endpoint[] = ['workspaces', 'governance_models', 'records', 'taxonomies', 'fields', 'picklists', 'submissions', 'api_keys'];
const RETRIEVALS: readonly Endpoint[] = ['workspaces/{id}', 'governance_models/{id}', 'records/{id}', 'taxonomies/{id}', 'fields/{id}', 'picklists/{id}'];

/**
 * What each clause's sentence covers (clauses.md), where it names a dimension: "every endpoint",
 * "unknown paths and unsupported methods", "missing or malformed", "unknown or revoked", "null",
 * "empty objects", "long strings", "not JSON, or not a JSON object"... A clause that names none has no entry.
 */
export const CLAUSE_SCOPE: Readonly<Partial<Record<ClauseId, Readonly<Partial<Record<Dimension, readonly string[]>>>>>> = {
  'GEN-1': {
    endpoints: [...EVERY_ENDPOINT, 'other paths'],
    methods: ['GET', 'HEAD', 'POST', 'DELETE', 'PATCH'],
    credentials: ['main key', 'none', 'malformed'],
    statuses: VOCABULARY.statuses,
  },
  // "However malformed": every kind of body, as every kind of value.
  'GEN-3': { values: ['absent', 'null', 'empty', 'boundary', 'unicode', 'huge'], credentials: ['malformed'], bodies: VOCABULARY.bodies },
  // "Not JSON, or not a JSON object": however it is labelled, application/json, none or another type.
  'GEN-4': { methods: ['POST'], values: ['null'], bodies: ['not a JSON object', 'no Content-Type', 'other Content-Type'] },
  // "Responses are always JSON": refusals and 429s are labelled too.
  'GEN-5': { statuses: VOCABULARY.statuses },
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
  // "has_more: true when more pages follow" of every list, the filtered submission list included.
  'PAG-6': { endpoints: LISTS, states: ['after writes'], filters: ['none', 'each alone'] },
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
  'KEY-1': { endpoints: ['api_keys'], methods: ['POST'], credentials: ['created key'], states: ['fresh'], bodies: ['JSON object'] },
  'KEY-2': { credentials: ['created key'], states: ['fresh'] },
  // "Each key's name and last-use time": whatever the key did (read, or only wrote), whatever its
  // name's length (a name one past VARCHAR(255) listed whole, or refused) and alphabet.
  'KEY-3': { endpoints: ['api_keys'], states: ['fresh', 'used', 'used to write'], values: ['null', 'long', 'unicode'] },
  'KEY-4': {
    endpoints: [...EVERY_ENDPOINT, 'forbidden probe'],
    methods: ['GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE'],
    credentials: ['main key', 'created key', 'revoked key'],
    statuses: ['2xx', '4xx'],
    states: ['fresh', 'used', 'deleted'],
    // "Shown in full only at creation": also to a creation that repeats a live key's name.
    values: ['repeated'],
  },
  // "The token stops working immediately": on every list and every retrieval of every collection.
  'KEY-5': { endpoints: ['api_keys/{id}', ...LISTS, ...RETRIEVALS], methods: ['GET', 'DELETE'], credentials: ['revoked key'], states: ['deleted'] },
  'KEY-6': { endpoints: ['api_keys', 'api_keys/{id}'], methods: ['DELETE'], states: ['deleted'] },
  'KEY-7': { credentials: ['created key'], states: ['used'] },
  'KEY-8': { endpoints: ['api_keys'], methods: ['POST'], values: ['absent'], bodies: ['JSON object'] },
  // A submission well-formed, or with a fault inside it: a JSON object (one that is not is GEN-4's).
  'SUB-1': { endpoints: ['submissions'], methods: ['POST'], bodies: ['JSON object'] },
  'SUB-2': { endpoints: ['submissions'], methods: ['POST'], values: ['absent'], bodies: ['JSON object'] },
  'SUB-3': { bodies: ['JSON object'] },
  // "Can be filtered by workspace and by taxonomy": each alone, both together, and neither.
  'SUB-4': { endpoints: ['submissions'], methods: ['GET', 'POST'], states: ['after writes'], filters: VOCABULARY.filters },
  // Every error, whatever refused it: a 4xx, a 429.
  'ERR-1': { statuses: ['4xx', '429'] },
  'ERR-2': { statuses: ['4xx', '429'] },
  'SUB-5': { endpoints: ['submissions'], methods: ['POST'], values: ['null', 'empty', 'boundary', 'unicode', 'huge'], bodies: ['JSON object'] },
  'ERR-3': { values: ['absent'] },
  'ERR-5': { endpoints: RETRIEVALS, states: ['deleted'] },
  'ERR-6': { methods: ['GET', 'HEAD'] },
  'ERR-7': { values: ['absent'] },
  'ERR-8': { endpoints: ['other paths'] },
  'ERR-9': { endpoints: RETRIEVALS.filter((e) => e !== 'records/{id}'), states: ['deleted'] },
  // "Responses generally": refusals and 429s too.
  'RATE-1': { credentials: ['main key', 'second account', 'created key'], methods: ['GET', 'POST', 'DELETE'], statuses: VOCABULARY.statuses },
  'RATE-2': { statuses: VOCABULARY.statuses },
  // "All authenticated requests": the exhausting burst takes several routes in turn (issue 27, class 7).
  'RATE-3': { endpoints: ['workspaces', 'governance_models', 'records', 'api_keys', 'submissions'], values: ['boundary'] },
  // "Exhausting one key does not throttle another key": any other key, another account's too.
  'RATE-6': { credentials: ['main key', 'created key', 'second account'] },
  'RATE-7': { credentials: ['none'], values: ['boundary'] },
};

/** Why a value a clause reaches is visited by none of its checks: the only reasons a gap may have. */
export const GAP_CAUSES = {
  'rate budget': 'out of the rate budget',
  profile: 'needs a fact the profile does not declare',
  footprint: 'a write the footprint does not allow',
} as const;
export type GapCause = keyof typeof GAP_CAUSES;

/** A gap's reason: its cause, and the particulars in a sentence. */
export interface NotReached {
  readonly cause: GapCause;
  readonly why: string;
}

/** Per clause and dimension, the values no check visits, each with its reason. */
export type NotReachedTable = Readonly<Partial<Record<ClauseId, Readonly<Partial<Record<Dimension, Readonly<Record<string, NotReached>>>>>>>>;

/**
 * Every value a clause reaches (`CLAUSE_SCOPE`) that no check of the clause visits, with the
 * reason: data, in `not-reached.json` beside this file. `npm run coverage` refuses a gap without
 * one, and drops from the file a reason for a value a check now visits (stale), saying so.
 */
export const NOT_REACHED_FILE = join(PACKAGE_ROOT, 'src/clauses/not-reached.json');

export const NOT_REACHED: NotReachedTable = JSON.parse(readFileSync(NOT_REACHED_FILE, 'utf8')) as NotReachedTable;
