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
  if (exchange.request.body !== undefined) parts.push('--data-raw', quote(exchange.request.body));
  return parts.join(' ');
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
