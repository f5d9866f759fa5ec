import type { ClauseId } from '../../src/kit.js';
import type { RowData } from '../arbitraries/rowData.js';

/**
 * JSON values at the edges a stack is most likely to trip on, sent as row data every run whatever
 * the seed (SUB-5): text outside the Basic Multilingual Plane, right-to-left and combining text,
 * deep nesting, long strings, empty containers, extreme numbers; member names special to the
 * languages and frameworks implementations are written in; strings common stores refuse or alter;
 * numbers at the integer boundaries a stack may use. Data, not code: an entry is one line, and
 * docs/coverage.md lists them.
 */
export interface JsonValueEntry {
  /** How the report names it: `a row with ...`. */
  readonly what: string;
  readonly data: RowData;
  readonly clauses: readonly ClauseId[];
  readonly unreached: Readonly<Partial<Record<ClauseId, string>>>;
}

const ROW: readonly ClauseId[] = ['SUB-5', 'GEN-3'];

/** Member names an object of the language already has, or a query language reads: a plain object used as a map finds a function or an operator there. */
const SPECIAL_NAMES: RowData = {
  constructor: 'c',
  toString: 't',
  hasOwnProperty: 'h',
  valueOf: 1,
  prototype: {},
  $where: 'w',
  $gt: 0,
  'a.b': 'dotted',
  '': 'empty name',
};

export const JSON_VALUES: readonly JsonValueEntry[] = [
  { what: 'an empty data object', data: {}, clauses: ROW, unreached: {} },
  { what: 'text outside the Basic Multilingual Plane', data: { name: '𠜎𠜱𠝹 𝒜𝓁𝒾𝒸ℯ', note: '👩‍👩‍👧‍👦 🏳️‍🌈 🇯🇵' }, clauses: ROW, unreached: {} },
  {
    what: 'right-to-left and combining text',
    data: { ar: 'مرحبا بالعالم', he: 'שָׁלוֹם', hi: 'नमस्ते दुनिया', th: 'สวัสดีชาวโลก', zalgo: 'e\u0301\u0302\u0303' },
    clauses: ROW,
    unreached: {},
  },
  {
    what: 'objects and arrays nested 32 deep',
    data: { nested: Array.from({ length: 32 }).reduce<unknown>((inner, _, i) => (i % 2 ? [inner] : { level: 32 - i, inner }), 'bottom') as RowData },
    clauses: ROW,
    unreached: {},
  },
  { what: 'a string of 16384 characters', data: { long_text: 'Ünïcödé 🦄 '.repeat(1490).slice(0, 16384) }, clauses: ROW, unreached: {} },
  {
    what: 'empty containers, null, extreme numbers',
    data: { o: {}, a: [], n: null, big: 1e308, tiny: 5e-324, neg: -9007199254740991, t: true },
    clauses: ROW,
    unreached: {},
  },
  {
    what: 'member names special to languages and stores (constructor, toString, $where, a dotted name, an empty name)',
    data: SPECIAL_NAMES,
    clauses: ROW,
    unreached: {
      'SUB-5':
        'not __proto__: Fastify and secure-json-parse refuse it by default (400), a careful implementer’s answer that “any data object is accepted” cannot be held against',
    },
  },
  {
    what: 'strings stores refuse or alter (a NUL, line and paragraph separators, a byte-order mark)',
    data: { nul: 'a\u0000b', separators: 'a\u2028b\u2029c', bom: '\ufeffbom', quotes: 'back\\slash "quoted"' },
    clauses: ROW,
    unreached: { 'SUB-5': 'not a lone surrogate: valid JSON text, but no Unicode scalar value, which a store may refuse with reason' },
  },
  {
    what: 'numbers at the integer boundaries (2^31, 2^32, 2^53 + 2, 2^63, -2^31 - 1)',
    data: { i31: 2147483648, i32: 4294967296, i53: 9007199254740994, i63: 9223372036854775807, below31: -2147483649 },
    clauses: ROW,
    unreached: {},
  },
];
