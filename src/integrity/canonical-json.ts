/**
 * The canonical JSON of a value: object members sorted by name (UTF-16 code units, as RFC 8785
 * sorts them), no whitespace, JavaScript's number spelling. Two values that are the same JSON
 * give the same text whatever the order or layout they were written in, so a digest of it names
 * the content, not the file it sits in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    // undefined, functions and symbols have no JSON form; inside an object they are left out.
    return text === undefined ? 'null' : text;
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
