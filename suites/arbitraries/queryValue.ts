/**
 * A raw query value of `page` or `limit` as a generator produces it, with what it spells. The
 * classes follow the clause catalogue: canonical integers are judged by PAG-3/PAG-4, values that
 * are no integer at all by PAG-5, other spellings of an integer by PAG-10.
 */
export type Spelling = 'canonical' | 'unusual' | 'none';

export interface QueryValue {
  /** The values as the server must see them, one per occurrence (two for a repeated parameter). */
  readonly raw: readonly string[];
  readonly spelling: Spelling;
  /**
   * The numbers an exact reading may give: one for most spellings, the default for an empty
   * value, either value of a repeated parameter. Empty for spellings of no integer.
   */
  readonly readings: readonly bigint[];
  /** What the generator made, for the report: `exponent`, `hex`, `fraction`... */
  readonly form: string;
}

/** The query string for `name` = `value`, each occurrence percent-encoded so the server reads it as given. */
export function rawQueryOf(name: string, value: QueryValue): string {
  return value.raw.map((raw) => `${name}=${encodeURIComponent(raw)}`).join('&');
}

/** Canonical decimal spelling: no sign for non-negatives, no leading zeros. */
export function decimal(value: bigint): string {
  return value.toString(10);
}
