import { defineVariant } from '../../variant.js';
import { DEFAULT_LIMIT, MAX_LIMIT, type ParamResult } from '../../../reference/pagination.js';

/*
 * Where this happens in the field: an ASP.NET Core (or any typed-binder) service whose list
 * actions take `[FromQuery] int page, int limit`. The framework converts the text with
 * `Int32.Parse(text, NumberStyles.Integer, CultureInfo.InvariantCulture)`, which accepts white space
 * before and after the digits (U+0009 to U+000D and U+0020), one leading sign and leading zeros;
 * here it is widened to arbitrary size so that a huge page is a page past the end, not an
 * overflow. A repeated parameter (`?page=2&page=3`) would be bound from its first value by the
 * framework; the team's security review (HTTP parameter pollution, OWASP) made the binder refuse
 * repetitions that disagree and accept those that agree, since they say one number.
 *
 * Why it is conformant: Pagination parameters fix page as an integer from 1 and limit as an
 * integer from 1 to 10000, defaults 1 and 100; the document says nothing about how an integer is
 * spelt in a query string. Every value read here is exactly the number its text spells (" 7",
 * "+7" and "007" are 7; a query `+` is a space by form encoding, so `?limit=+5` is " 5", i.e. 5);
 * the empty value is still the default; anything that is no plain decimal integer (text,
 * fractions, exponents, hex, a sign alone, white space alone, disagreeing repeats) is 422
 * `invalid_request_error` naming the parameter (Errors table: a value that fails validation;
 * `param` names the input). Below-range and above-range values (after reading, so "-0" and "+0"
 * are 0) are 422 naming the parameter as before. The reading taken: "an integer" is a value, and
 * a spelling of that value with surrounding white space, a sign or leading zeros is that integer.
 * It applies to every list (workspaces, governance models, records, catalogue lists, the key list
 * and the submission list), since all of them read page and limit through one parser.
 */

/** NumberStyles.Integer: leading and trailing white (.NET's set), an optional sign, decimal digits. */
const INTEGER = /^[\t\n\v\f\r ]*([+-]?)([0-9]+)[\t\n\v\f\r ]*$/;

function readInteger(raw: unknown, name: 'page' | 'limit'): ParamResult {
  const fallback = name === 'page' ? 1n : BigInt(DEFAULT_LIMIT);
  if (raw === undefined || raw === '') return { ok: true, value: fallback };
  const spellings: readonly unknown[] = Array.isArray(raw) ? raw : [raw];
  let value: bigint | null = null;
  for (const spelling of spellings) {
    if (typeof spelling !== 'string') return { ok: false, message: `${name} must be an integer.` };
    const match = INTEGER.exec(spelling);
    if (!match) return { ok: false, message: `${name} must be an integer.` };
    const magnitude = BigInt(match[2]!);
    const read = match[1] === '-' ? -magnitude : magnitude;
    if (value !== null && read !== value) return { ok: false, message: `${name} is given more than once with different values.` };
    value = read;
  }
  if (value === null) return { ok: false, message: `${name} must be an integer.` };
  if (name === 'page' && value < 1n) return { ok: false, message: 'page starts at 1.' };
  if (name === 'limit' && (value < 1n || value > BigInt(MAX_LIMIT))) return { ok: false, message: `limit must be between 1 and ${MAX_LIMIT}.` };
  return { ok: true, value };
}

export default defineVariant({
  description:
    'reads page and limit the way a typed integer binder does: surrounding white space, a leading sign and leading zeros are accepted, a repeated parameter is accepted only when every occurrence names the same number',
  // No open point names the spelling of query integers; this is the Pagination parameters section's.
  openPoint: 'page-past-end',
  atRisk: ['PAG-2', 'PAG-3', 'PAG-4', 'PAG-5', 'PAG-9', 'PAG-10', 'ERR-4'],
  modify: ({ behaviour }) => {
    // One parser for every list: `sendPage` reads both parameters through the behaviour.
    behaviour.parsePageParam = readInteger;
  },
});
