import type { Faker } from '@faker-js/faker';
import fc from 'fast-check';

// Generated row `data` objects for SUB-5: what real integrations send (names, addresses, numbers,
// dates in many scripts), plus what breaks storage layers in practice: characters outside the
// Basic Multilingual Plane, combining marks, right-to-left text, deep nesting, empty containers,
// long strings. Every value is plain JSON: no undefined, NaN or Infinity.

/** A JSON object, as a row's `data` member is (API document, Submission). */
export type RowData = { [key: string]: Json };
export type Json = null | boolean | number | string | Json[] | RowData;

export interface RowDataOptions {
  /** Depth of the deliberately deep member (objects and arrays alternating). @default 24 */
  readonly maxDepth?: number;
  /** Characters (UTF-16 code units) of the longest string. @default 8192 */
  readonly maxStringLength?: number;
}

/** What `rowData()` generates at most by default: the deepest member and the longest string. */
export const ROW_DATA_BOUNDS = { maxDepth: 24, maxStringLength: 8192 } as const;

/**
 * Locales whose fakers write in different scripts: Arabic, Bengali, Thaana, Greek, Hebrew, ...
 * One module a locale (the package's main entry loads all seventy of them), each loaded apart from
 * this module: the seventeen are some 80 ms of a worker's start on Node 20, before its first check,
 * and only generated rows need them. Loading begins with this module, beside the first checks, and
 * `fakersReady()` settles once every one is there; nothing is generated before.
 */
const LOCALES = [
  () => import('@faker-js/faker/locale/en'),
  () => import('@faker-js/faker/locale/ar'),
  () => import('@faker-js/faker/locale/bn_BD'),
  () => import('@faker-js/faker/locale/dv'),
  () => import('@faker-js/faker/locale/el'),
  () => import('@faker-js/faker/locale/he'),
  () => import('@faker-js/faker/locale/hy'),
  () => import('@faker-js/faker/locale/ja'),
  () => import('@faker-js/faker/locale/ka_GE'),
  () => import('@faker-js/faker/locale/ko'),
  () => import('@faker-js/faker/locale/ne'),
  () => import('@faker-js/faker/locale/ru'),
  () => import('@faker-js/faker/locale/ta_IN'),
  () => import('@faker-js/faker/locale/th'),
  () => import('@faker-js/faker/locale/ur'),
  () => import('@faker-js/faker/locale/vi'),
  () => import('@faker-js/faker/locale/zh_CN'),
] as const;

/** `LOCALES`' fakers, in their order, once loaded. */
let loadedFakers: readonly Faker[] = [];
const loading = Promise.all(LOCALES.map(async (load) => (await load()).faker)).then((fakers) => {
  loadedFakers = fakers;
});
// A failed load is the error of whoever awaits `fakersReady()`, not an unhandled rejection before.
loading.catch(() => undefined);

/** Settles once the locales' fakers are loaded: awaited before `rowData()` generates a value. */
export function fakersReady(): Promise<void> {
  return loading;
}

/** Realistic values; dates come from a fixed window so that a seed replays exactly. */
const REALISTIC: readonly ((f: Faker) => Json)[] = [
  (f) => f.person.fullName(),
  (f) => f.location.streetAddress({ useFullAddress: true }),
  (f) => f.location.city(),
  (f) => f.company.name(),
  (f) => f.lorem.sentence(),
  (f) => f.phone.number(),
  (f) => f.internet.email(),
  (f) => f.date.between({ from: '1900-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z' }).toISOString(),
  (f) => f.number.int({ min: -1_000_000, max: 1_000_000 }),
  (f) => f.number.float({ min: -1e6, max: 1e6, fractionDigits: 4 }),
  (f) => f.finance.amount(),
  (f) => f.datatype.boolean(),
  (f) => f.string.uuid(),
];

/** A realistic value, replayed from the seed fast-check draws (and shrinks towards 0). */
const realistic: fc.Arbitrary<Json> = fc.tuple(fc.nat(LOCALES.length - 1), fc.nat(REALISTIC.length - 1), fc.integer()).map(([locale, kind, seed]) => {
  const faker = loadedFakers[locale];
  if (!faker) throw new Error('rowData() generated a value before fakersReady() settled');
  faker.seed(seed);
  return REALISTIC[kind]!(faker);
});

/** Code point ranges of scripts, a few letters each, so that every run mixes several. */
const SCRIPTS: readonly (readonly [number, number])[] = [
  [0x0041, 0x007a], // Latin
  [0x00c0, 0x024f], // Latin with diacritics
  [0x0370, 0x03ff], // Greek
  [0x0400, 0x04ff], // Cyrillic
  [0x0530, 0x058f], // Armenian
  [0x0590, 0x05ff], // Hebrew (right to left)
  [0x0600, 0x06ff], // Arabic (right to left)
  [0x0900, 0x097f], // Devanagari (combining vowel signs)
  [0x0e00, 0x0e7f], // Thai
  [0x10a0, 0x10ff], // Georgian
  [0x1200, 0x137f], // Ethiopic
  [0x3040, 0x30ff], // Hiragana and Katakana
  [0x4e00, 0x9fff], // CJK ideographs
  [0xac00, 0xd7a3], // Hangul syllables
  [0x20000, 0x2a6df], // CJK extension B: outside the BMP, four bytes in UTF-8
  [0x1d400, 0x1d7ff], // mathematical alphanumerics: outside the BMP
];

const scriptText: fc.Arbitrary<string> = fc
  .constantFrom(...SCRIPTS)
  .chain(([min, max]) => fc.string({ unit: fc.integer({ min, max }).map((cp) => String.fromCodePoint(cp)), minLength: 1, maxLength: 24 }));

/** Emoji as people type them: ZWJ sequences, skin tones, flags, keycaps, variation selectors. */
const EMOJI = ['😀', '👍🏽', '👩‍👩‍👧‍👦', '🧑🏿‍🚀', '🏳️‍🌈', '🇯🇵', '🇧🇷', '1️⃣', '❤️', '🫠', '🦄', '👨‍💻', '🤷‍♀️', '🏴󠁧󠁢󠁳󠁣󠁴󠁿'] as const;
const emojiText: fc.Arbitrary<string> = fc
  .array(fc.oneof(fc.constantFrom(...EMOJI), fc.constantFrom(' ', 'a', '·')), { minLength: 1, maxLength: 12 })
  .map((parts) => parts.join(''));

/** Any well-formed Unicode, grapheme by grapheme (no lone surrogates: those are not text). */
const anyText: fc.Arbitrary<string> = fc.string({ unit: 'grapheme', maxLength: 32 });

const text: fc.Arbitrary<string> = fc.oneof(scriptText, emojiText, anyText);

const number: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 1e308, 5e-324),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)),
);

const leaf: fc.Arbitrary<Json> = fc.oneof({ weight: 3, arbitrary: realistic }, { weight: 3, arbitrary: text }, number, fc.boolean(), fc.constant(null));

/** Member names as they occur: plain, unicode, with dots, dashes, spaces and emoji. */
const key: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('name', 'email', 'address', 'amount', 'tags', 'meta', 'notes', 'created', 'id', 'value') },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/) },
  { weight: 1, arbitrary: fc.oneof(scriptText, emojiText) },
  { weight: 1, arbitrary: fc.constantFrom('first name', 'a.b.c', 'x-y', 'Ünïcödé', '日本語', 'العربية') },
);

/** Small trees of objects and arrays, empty ones included. */
const tree: fc.Arbitrary<Json> = fc.letrec<{ value: Json; object: RowData; array: Json[] }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('object'), tie('array')),
  object: fc.dictionary(key, tie('value'), { maxKeys: 4 }) as fc.Arbitrary<RowData>,
  array: fc.array(tie('value'), { maxLength: 4 }),
})).value;

/** A string of a few thousand characters: a repeated grapheme run, cheap to generate. */
function longText(maxLength: number): fc.Arbitrary<string> {
  return fc.tuple(fc.oneof(scriptText, emojiText), fc.integer({ min: 256, max: Math.max(256, maxLength) })).map(([unit, length]) =>
    unit
      .repeat(Math.max(1, Math.ceil(length / unit.length)))
      .slice(0, length)
      .replace(/[\uD800-\uDBFF]$/, ''),
  );
}

/** Objects and arrays alternating, `depth` levels down, with `bottom` at the bottom. */
export function nestedValue(depth: number, bottom: Json): Json {
  let value: Json = bottom;
  for (let level = depth; level > 0; level--) value = level % 2 === 0 ? [value] : { level, value };
  return value;
}

/** Objects and arrays alternating, up to `maxDepth` levels down, with a value at the bottom. */
function deep(maxDepth: number): fc.Arbitrary<Json> {
  return fc.tuple(fc.integer({ min: 1, max: maxDepth }), leaf).map(([depth, bottom]) => nestedValue(depth, bottom));
}

/**
 * A row `data` object: realistic members, a small tree, and now and then a long string, a deep
 * member, or nothing at all (`{}` is a valid object).
 */
export function rowData(options: RowDataOptions = {}): fc.Arbitrary<RowData> {
  const { maxDepth = ROW_DATA_BOUNDS.maxDepth, maxStringLength = ROW_DATA_BOUNDS.maxStringLength } = options;
  const members = fc.dictionary(key, fc.oneof({ weight: 3, arbitrary: leaf }, { weight: 2, arbitrary: tree }), { maxKeys: 6 });
  const extras = fc.record(
    { long_text: longText(maxStringLength), nested: deep(maxDepth), empty_object: fc.constant({}), empty_array: fc.constant([]) },
    { requiredKeys: [] },
  );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant({}) },
    { weight: 8, arbitrary: fc.tuple(members, extras).map(([m, e]) => ({ ...m, ...(e as RowData) })) },
  );
}

/** The longest string the property makes, in its heaviest form: characters outside the BMP (4 bytes each in UTF-8). */
const LONGEST = '\u{2070E}'.repeat(ROW_DATA_BOUNDS.maxStringLength / 2);

/**
 * Rows at the boundaries of row data, sent as fixed cases before anything generated (SUB-5): data
 * objects that are empty, alone, all together and beside filled ones; empty arrays, empty
 * objects, empty strings (an empty member name too) and nulls inside data; and the deepest
 * nesting and the longest string `rowData()` generates. Each is a whole `rows` array.
 */
export const BOUNDARY_ROWS: readonly { readonly what: string; readonly rows: readonly RowData[] }[] = [
  { what: 'one row whose data is an empty object', rows: [{}] },
  { what: 'three rows whose data are all empty objects', rows: [{}, {}, {}] },
  { what: 'an empty data object before a filled one', rows: [{}, { name: 'Ada Lovelace', tags: ['a', 'b'] }] },
  { what: 'filled data objects around an empty one', rows: [{ name: 'Ada Lovelace' }, {}, { amount: 1 }] },
  { what: 'empty arrays and objects as members and inside arrays', rows: [{ tags: [], meta: {}, matrix: [[]], list: [{}], deep: { empty: { inner: [] } } }] },
  {
    what: 'empty strings and nulls inside data, an empty member name included',
    rows: [{ name: '', note: null, '': '', values: ['', null], nested: { name: '', note: null } }],
  },
  {
    what: `the deepest nesting the property generates (${ROW_DATA_BOUNDS.maxDepth} levels)`,
    rows: [{ nested: nestedValue(ROW_DATA_BOUNDS.maxDepth, 'bottom') }],
  },
  { what: `the longest string the property generates (${ROW_DATA_BOUNDS.maxStringLength} UTF-16 units, outside the BMP)`, rows: [{ long_text: LONGEST }] },
];
