import type { ClauseId } from './catalogue.js';

// The dimensions a check can span, for the table in docs/coverage.md (scripts/coverage.ts), and
// what each clause's sentence covers (`CLAUSE_SCOPE`). The endpoints, methods, credentials and
// request bodies of a check come from the run: the exchanges it made, or, for a check that judges
// exchanges made by others, theirs (`judges`). Resource states and value classes cannot be read off an exchange:
// each check declares them in its own options (`check(..., { key, states, values, judges })`,
// src/check/check.ts). A value a clause covers that no check of the clause visits is a gap in the table.

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
export type BodyClass = (typeof VOCABULARY.bodies)[number];
export type State = (typeof VOCABULARY.states)[number];
export type ValueClass = (typeof VOCABULARY.values)[number];

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
  },
  // "However malformed": every kind of body, as every kind of value.
  'GEN-3': { values: ['absent', 'null', 'empty', 'boundary', 'unicode', 'huge'], credentials: ['malformed'], bodies: VOCABULARY.bodies },
  // "Not JSON, or not a JSON object": however it is labelled, application/json, none or another type.
  'GEN-4': { methods: ['POST'], values: ['null'], bodies: ['not a JSON object', 'no Content-Type', 'other Content-Type'] },
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
  'KEY-1': { endpoints: ['api_keys'], methods: ['POST'], credentials: ['created key'], states: ['fresh'], bodies: ['JSON object'] },
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
  'KEY-8': { endpoints: ['api_keys'], methods: ['POST'], values: ['absent'], bodies: ['JSON object'] },
  // A submission well-formed, or with a fault inside it: a JSON object (one that is not is GEN-4's).
  'SUB-1': { endpoints: ['submissions'], methods: ['POST'], bodies: ['JSON object'] },
  'SUB-2': { endpoints: ['submissions'], methods: ['POST'], values: ['absent'], bodies: ['JSON object'] },
  'SUB-3': { bodies: ['JSON object'] },
  'SUB-4': { endpoints: ['submissions'], methods: ['GET', 'POST'], states: ['after writes'] },
  'SUB-5': { endpoints: ['submissions'], methods: ['POST'], values: ['null', 'empty', 'boundary', 'unicode', 'huge'], bodies: ['JSON object'] },
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
