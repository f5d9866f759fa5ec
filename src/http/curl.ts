import type { Exchange } from './exchange.js';

/** Which environment variable a curl line reads the credential from, by who made the request. */
const KEY_VARIABLE: Partial<Record<Exchange['auth'], string>> = {
  main: 'CONFORMANCE_API_KEY',
  other: 'CONFORMANCE_OTHER_ACCOUNT_API_KEY',
  created: 'CREATED_KEY',
};

/** A curl line that repeats the request; credentials come from the environment, never inline. */
export function curlLine(exchange: Exchange): string {
  const parts = ['curl', '-sS', '-i', '-X', exchange.request.method, quote(exchange.request.url)];
  for (const [name, value] of Object.entries(exchange.request.headers)) {
    if (name.toLowerCase() === 'authorization') {
      const variable = KEY_VARIABLE[exchange.auth];
      parts.push('-H', variable ? `"Authorization: Bearer \$${variable}"` : quote(`Authorization: ${value}`));
    } else {
      parts.push('-H', quote(`${name}: ${value}`));
    }
  }
  const body = exchange.request.body;
  if (body === undefined) return parts.join(' ');
  if (body.length <= INLINE_BODY_LIMIT) return [...parts, '--data-raw', quote(body)].join(' ');
  // A line of several hundred KiB helps no reader and swells every report format it appears in:
  // the line names a file instead, says what it held, and how to send it again: the suite's own
  // bodies come from the run's seed, which `rerun` repeats.
  const bytes = Buffer.byteLength(body);
  return [
    ...parts,
    '--data-binary',
    '@request-body.json',
    `# the request's body, ${bytes} bytes, is too long for this line (its start is in the evidence); \`conformance rerun\` of this report sends it again`,
  ].join(' ');
}

/** Bodies up to this many characters are written into the curl line. */
const INLINE_BODY_LIMIT = 16 * 1024;

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
