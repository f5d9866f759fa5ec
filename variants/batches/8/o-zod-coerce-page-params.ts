import type { ParamResult } from '../../../reference/pagination.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../../reference/pagination.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: a TypeScript API (Hono with `@hono/zod-validator`, Express with a
 * zod middleware, Next.js route handlers, tRPC) that validates its query string with the schema
 * nearly every such codebase writes for pagination:
 *
 *   z.object({
 *     page: z.coerce.number().int().min(1).default(1),
 *     limit: z.coerce.number().int().min(1).max(10000).default(100),
 *   })
 *
 * `z.coerce.number()` is `Number(input)`: JavaScript's own reading of a numeric string. It skips
 * surrounding white space, takes a sign, leading zeros, a decimal point and an exponent (`1e2` is
 * 100, `7.0` is 7), and the non-decimal integer literals `0x10` (16), `0o17` (15) and `0b101` (5);
 * it reads the empty string (and white space alone) as 0. `.int()` is zod 4's integer check, which
 * refuses a fraction and also any integer beyond Number.MAX_SAFE_INTEGER (where a double could no
 * longer hold the number the client spelled). A parameter given twice reaches the schema as an
 * array (Hono's `queries()`, Express's query parser), which `Number()` reads as NaN: refused. A
 * missing parameter is `undefined`, and `.default()` supplies 1 or 100. The validator's failure hook
 * answers 422 `invalid_request_error` naming `issues[0].path[0]`. One guard is the team's own,
 * added after a client's `limit=100.0000000000000001` was quietly read as 100: the text must spell
 * exactly the integer that `Number()` made of it (a refine that re-reads the decimal digits), so no
 * spelling is ever read as another value.
 *
 * Why it is conformant:
 * - PAG-2: no `page` is page 1, no `limit` is 100 (the defaults, for an absent parameter).
 * - PAG-3, PAG-4: a page below 1, or a limit outside 1..10000, is 422 `invalid_request_error`
 *   naming the parameter; every limit from 1 to 10000 inclusive is served.
 * - PAG-5: a value that is no integer at all is 422 naming the parameter: text (`abc`, `1_000`,
 *   `Infinity`), a fraction (`1.5`, `2.5e0`).
 * - PAG-10 allows each unusual spelling either way, "rejected with 422 naming the parameter or
 *   read as exactly the number it spells (empty: the default)". Here leading zeros (`007`), a plus
 *   sign (`+7`), spaces (` 7 `), an exponent (`1e2`, `7e0`), hex (`0x10`) and a decimal point with
 *   only zeros after it (`7.0`) are read as exactly the number they spell; an empty value (and a
 *   value of spaces alone) is rejected with 422 naming the parameter (zod reads it as 0, below the
 *   minimum); beyond 2^53, a repeated parameter and a minus zero are rejected with 422 naming the
 *   parameter. Never a 5xx, never another value (the exactness guard above).
 * - ERR-4: every such 422 names `page` or `limit` in `param`; ERR-1, ERR-2: the common envelope
 *   and its type (the reference's own invalid-parameter answer).
 * - Open point: how an empty value is taken (`empty-values`: missing, invalid, or a reference to
 *   nothing); the spelling of numbers beyond plain digits is the same kind of open point
 *   (PAG-10). PAG-6..PAG-9 are untouched: the page cut and the envelope are the reference's.
 */

type Name = 'page' | 'limit';

/** What `Number()` accepts as a decimal literal once white space is skipped (ECMA-262 StrDecimalLiteral, less Infinity). */
const DECIMAL = /^[+-]?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Whether `text` (already trimmed) spells exactly the safe integer `value`: the team's refine. */
function spellsExactly(text: string, value: number): boolean {
  const decimal = DECIMAL.exec(text);
  // 0x / 0o / 0b literals: integers by construction, exact below 2^53 (`value` is a safe integer).
  if (!decimal) return /^0[xXoObB][0-9a-fA-F]+$/.test(text);
  const digits = `${decimal[1] ?? ''}${decimal[2] ?? ''}`.replace(/^0+/, '') || '0';
  const scale = Number(decimal[3] ?? '0') - (decimal[2] ?? '').length;
  const sign = text.startsWith('-') ? -1n : 1n;
  let exact: bigint;
  if (scale >= 0) {
    // A value this far up is no safe integer, and `value` is one.
    if (digits !== '0' && digits.length + scale > 17) return false;
    exact = BigInt(digits) * 10n ** BigInt(digits === '0' ? 0 : scale);
  } else {
    const divisor = 10n ** BigInt(-scale);
    if (-scale > digits.length + 1) return digits === '0' && value === 0;
    const mantissa = BigInt(digits);
    if (mantissa % divisor !== 0n) return false;
    exact = mantissa / divisor;
  }
  return sign * exact === BigInt(value);
}

/** `z.coerce.number().int().min(1)[.max(10000)].default(...)`, as the validator hook reports it. */
function coercePageParam(raw: unknown, name: Name): ParamResult {
  if (raw === undefined) return { ok: true, value: name === 'page' ? 1n : BigInt(DEFAULT_LIMIT) };
  // Number(): a string is read as JS reads numeric strings; an array (a repeated parameter) is NaN.
  const value = typeof raw === 'string' ? Number(raw) : Number.NaN;
  if (!Number.isFinite(value)) return { ok: false, message: `Invalid input: expected number, received ${Number.isNaN(value) ? 'NaN' : 'Infinity'} (${name}).` };
  if (!Number.isSafeInteger(value)) {
    return {
      ok: false,
      message: Number.isInteger(value) ? `Invalid input: ${name} is beyond the safe integer range.` : `Invalid input: expected int, received number (${name}).`,
    };
  }
  if (value < 1) return { ok: false, message: `Too small: expected ${name} to be >=1.` };
  if (name === 'limit' && value > MAX_LIMIT) return { ok: false, message: `Too big: expected limit to be <=${MAX_LIMIT}.` };
  if (!spellsExactly((raw as string).trim(), value)) return { ok: false, message: `Invalid input: ${name} must spell an integer exactly.` };
  return { ok: true, value: BigInt(value) };
}

export default defineVariant({
  description:
    'Page and limit read by zod\'s z.coerce.number().int() (Hono/Express validator): JavaScript\'s Number() reads " 7 ", "+7", "007", "7.0", "1e2" and "0x10" as the integers they spell, an empty value becomes 0 and is refused 422, a repeated parameter or a value beyond 2^53 is refused 422; absent parameters take the defaults',
  openPoint: 'empty-values',
  atRisk: ['PAG-2', 'PAG-3', 'PAG-4', 'PAG-5', 'PAG-10', 'ERR-4', 'GEN-3'],
  modify: ({ behaviour }) => {
    behaviour.parsePageParam = coercePageParam;
  },
});
