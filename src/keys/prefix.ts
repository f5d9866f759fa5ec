/**
 * The fixed start of every key (API document, Authentication 2: `<KEY_PREFIX><SECRET>`), inferred
 * from the configured keys where the profile does not declare it. Used where a wrong guess costs
 * nothing: the "part of a secret" windows start after it (so the prefix every key shares is never
 * a leak), and AUTH-2 strips it to make a token without the prefix. Never for AUTH-5, which
 * judges a declared prefix only.
 */

/** Characters that end a prefix by convention: `sk_`, `sk_live_`, `ak-`, `key.`. */
const SEPARATOR = /[_\-.]/;

/** Longest group of a prefix before a separator; anything longer is taken for random characters. */
const MAX_GROUP = 8;

/**
 * Two or more keys: their common start, cut back to its last separator when it has one (two
 * random bodies may share a character or two). One key: its leading short groups that each end
 * in a separator (`sk_live_abc…` gives `sk_live_`). Null when nothing looks like a prefix.
 */
export function inferKeyPrefix(keys: readonly (string | null | undefined)[]): string | null {
  const known = keys.filter((k): k is string => typeof k === 'string' && k.length > 0);
  if (known.length === 0) return null;
  if (known.length >= 2) {
    const common = commonStart(known);
    const cut = lastSeparator(common);
    const prefix = cut > 0 ? common.slice(0, cut) : common;
    return prefix.length > 0 && prefix.length < Math.min(...known.map((k) => k.length)) ? prefix : null;
  }
  const key = known[0]!;
  let end = 0;
  for (;;) {
    const rest = key.slice(end);
    const at = rest.search(SEPARATOR);
    if (at <= 0 || at > MAX_GROUP) break;
    end += at + 1;
  }
  return end > 0 && end <= key.length / 2 ? key.slice(0, end) : null;
}

function commonStart(values: readonly string[]): string {
  let n = 0;
  while (values.every((v) => n < v.length && v[n] === values[0]![n])) n++;
  return values[0]!.slice(0, n);
}

/** The length up to and including the last separator, 0 when there is none. */
function lastSeparator(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (SEPARATOR.test(text[i]!)) return i + 1;
  return 0;
}
