import { errorBody } from '../../../reference/errors.js';
import type { ParamResult } from '../../../reference/pagination.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../../reference/pagination.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: a Django REST Framework API. Its list views read page and limit
 * through a query serializer,
 *
 *   class PageParams(serializers.Serializer):
 *       page = serializers.IntegerField(min_value=1, required=False, default=1)
 *       limit = serializers.IntegerField(min_value=1, max_value=10000, required=False, default=100)
 *
 * and cut the page with Django's `Paginator(queryset, limit).page(page)`. DRF's
 * `IntegerField.to_internal_value` refuses strings over 1000 characters ("String value too large."),
 * strips a trailing decimal point with zeros and white space (`re_decimal = r'\.0*\s*$'`, "allow e.g.
 * '1.0' as an int, but not '1.2'"), and hands the rest to Python's `int()`, which skips surrounding
 * white space (Unicode white space included), takes a sign, leading zeros, underscores between
 * digits (PEP 515: `1_000`) and any Unicode decimal digit (`٣` and `３` are 3), and reads arbitrary
 * precision exactly. `Field.get_value` treats an empty value in a query string as absent for a field
 * that is not required, so `limit=` takes the default. DRF's own `PageNumberPagination` would answer
 * an out-of-range page 404 and clamp an oversized page size; this API does neither: the serializer
 * refuses a limit over 10000, and Django's `EmptyPage` ("That page contains no results", raised by
 * `Paginator.validate_number` for any page past `num_pages`, while page 1 of an empty list is
 * allowed: `allow_empty_first_page`) is re-raised as `ValidationError({'page': ...})`, which the
 * exception handler answers 422 `invalid_request_error` naming the field, as it does every
 * serializer error. The base list view refuses a parameter given twice (QueryDict would silently
 * take the last value): 422 naming it.
 *
 * Why it is conformant:
 * - PAG-9: "a page past the end answers either 200 with empty items, has_more false and the same
 *   total_count, or 422 naming page; never 404 or 5xx". Past the end here is 422
 *   `invalid_request_error`, code `invalid_page`, param `page` (open point `page-past-end`: the
 *   document bounds page below only). Every page from 1 to ceil(total_count / limit) is served, so a
 *   walk that stops when has_more is false never asks for one past the end (PAG-6, PAG-7, PAG-8).
 * - PAG-7: an empty collection answers page 1 with 200, empty items, has_more false (Django's
 *   `allow_empty_first_page`); only page 2 and beyond of it are past the end.
 * - PAG-2: no page is 1 and no limit is 100; PAG-3, PAG-4: a page below 1 or a limit outside
 *   1..10000 is 422 naming it; PAG-5: text (`abc`, `0x10`, `1e2`) and a fraction (`1.5`) are 422
 *   naming the parameter.
 * - PAG-10 allows each unusual spelling "rejected with 422 naming the parameter or read as exactly
 *   the number it spells (empty: the default)": empty is the default; leading zeros, a plus sign,
 *   spaces, `7.0` and `7.`, `1_000`, Unicode digits and numbers beyond 2^53 are read as exactly the
 *   number they spell (Python integers have no upper bound, so a page beyond 2^53 is an exact page
 *   past the end: 422 naming page, as above); an exponent, hex, a repeated parameter and over 1000
 *   characters are 422 naming the parameter. Never a 5xx, never another value.
 * - ERR-4: every 422 names `page` or `limit`; ERR-1, ERR-2: the common envelope with type
 *   `invalid_request_error` for 422; ERR-6: the type is neither `plan_limit_exceeded` nor the others.
 * - KEY-3, KEY-6, SUB-4 read the key list and the submission list, which other requests of a run
 *   may shrink between two pages: a walk whose next page has meanwhile fallen past the end gets this
 *   422 where the reference would give an empty 200. Both are PAG-9's answers to a page past the end.
 * - Nothing else changes: no profile fact, the envelope and the page cut of every page that exists.
 */

type Name = 'page' | 'limit';

/** Characters Python's `str.isspace()` holds true for: what `\s` matches in a str pattern and what `int()` skips. */
const PY_SPACE = '\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
/** DRF's `re_decimal`. */
const RE_DECIMAL = new RegExp(`\\.0*[${PY_SPACE}]*$`, 'u');
/** Python's `int(text)` in base 10: white space, a sign, decimal digits of any script with single underscores between them. */
const PY_INT = new RegExp(`^[${PY_SPACE}]*([+-]?)(\\p{Nd}(?:_?\\p{Nd})*)[${PY_SPACE}]*$`, 'u');
const ND = /^\p{Nd}$/u;
/** DRF's `IntegerField.MAX_STRING_LENGTH`. */
const MAX_STRING_LENGTH = 1000;

/** A Unicode decimal digit's value: decimal digits come in runs of ten from zero, so its offset from its run's start, modulo 10. */
function digitValue(char: string): number {
  const code = char.codePointAt(0)!;
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  let start = code;
  while (start > 0 && ND.test(String.fromCodePoint(start - 1))) start--;
  return (code - start) % 10;
}

/** `IntegerField(min_value=1[, max_value=10000], required=False, default=...)` on a query parameter. */
function drfIntegerField(raw: unknown, name: Name): ParamResult {
  // Field.get_value: absent, or empty for a field that is not required, is `empty`: the default.
  if (raw === undefined || raw === '') return { ok: true, value: name === 'page' ? 1n : BigInt(DEFAULT_LIMIT) };
  if (typeof raw !== 'string') return { ok: false, message: `${name} may be given once.` };
  if ([...raw].length > MAX_STRING_LENGTH) return { ok: false, message: 'String value too large.' };
  const match = PY_INT.exec(raw.replace(RE_DECIMAL, ''));
  if (!match) return { ok: false, message: 'A valid integer is required.' };
  const digits = [...match[2]!]
    .filter((char) => char !== '_')
    .map(digitValue)
    .join('');
  const value = BigInt(`${match[1] === '-' ? '-' : ''}${digits}`);
  if (value < 1n) return { ok: false, message: 'Ensure this value is greater than or equal to 1.' };
  if (name === 'limit' && value > BigInt(MAX_LIMIT)) return { ok: false, message: `Ensure this value is less than or equal to ${MAX_LIMIT}.` };
  return { ok: true, value };
}

export default defineVariant({
  description:
    "Django REST Framework: page and limit read by serializers.IntegerField (Python int(): '7.0', ' 7 ', '+7', '1_000', Unicode digits and numbers beyond 2^53 are the integers they spell; empty is the default; exponent and hex are 422), and a page past the end is Django's EmptyPage, answered 422 invalid_request_error naming page; page 1 of an empty list is 200",
  openPoint: 'page-past-end',
  atRisk: ['PAG-2', 'PAG-3', 'PAG-4', 'PAG-5', 'PAG-7', 'PAG-9', 'PAG-10', 'ERR-1', 'ERR-2', 'ERR-4', 'GEN-3', 'KEY-3', 'KEY-6', 'SUB-4'],
  modify: ({ app, behaviour }) => {
    behaviour.parsePageParam = drfIntegerField;
    // Paginator.validate_number: a page beyond num_pages raises EmptyPage; page 1 always exists.
    // The list answer is the reference's envelope; an empty page that is not page 1 is past the end.
    app.addHook('onSend', async (req, reply, payload) => {
      if (reply.statusCode !== 200 || (req.method !== 'GET' && req.method !== 'HEAD')) return payload;
      if (typeof payload !== 'string' || !payload.startsWith('{"items":[]')) return payload;
      const page = drfIntegerField((req.query as Record<string, unknown> | undefined)?.page, 'page');
      if (!page.ok || page.value <= 1n) return payload;
      reply.code(422);
      return JSON.stringify(errorBody('invalid_request_error', 'Invalid page: That page contains no results.', { code: 'invalid_page', param: 'page' }));
    });
  },
});
