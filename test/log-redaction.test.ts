import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { Broker } from '../src/broker/broker.js';
import { readSettings } from '../src/config/settings.js';
import type { Exchange } from '../src/http/exchange.js';
import { sliceSettings } from '../src/run/slices.js';
import { writeStoppedReport } from '../src/run/stopped-report.js';
import { Redactor, SECRET_PART_LENGTH } from '../src/secrets/redactor.js';
import { stoppedResults } from '../src/verdict/verdict.js';

// The log's exchanges reach exchanges.har and ctrf.json. Where every secret is plain, they are
// rendered as logged but for their URLs (redacted: HAR writes a query decoded), and each rendered
// text is redacted whole; where a secret holds a character JSON escapes, the log is redacted string
// by string first, or the secret would stand escaped in the text. Either way no report holds a part
// of a secret the log held, as it was, escaped or decoded.

test('plain secrets are letters, digits and -._~+/=: only', () => {
  const redactor = new Redactor();
  redactor.add('sk_live_AbC-123.x~y+z/w=v:u', 'sk_');
  expect(redactor.plainSecrets).toBe(true);
  for (const odd of ['sk_with"quote12345', 'sk_with\\back123456', 'sk_with<angle>12345', 'sk_with space 12345', 'sk_withé12345678']) {
    const other = new Redactor();
    other.add(odd, 'sk_');
    expect(other.plainSecrets, odd).toBe(false);
  }
});

function exchangeWith(secret: string): Exchange {
  // As the target sent it: raw in a body of text, a header and the URL.
  const body = `revealed: ${secret}`;
  return {
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    auth: 'main',
    bucket: 'main',
    check: 'KEY-4 a check',
    request: { method: 'GET', url: `http://127.0.0.1:9/api/v1/api_keys?hint=${encodeURIComponent(secret)}&raw=${secret}`, headers: { 'x-echo': secret } },
    response: { status: 200, headers: { 'x-key': secret, 'content-type': 'text/plain' }, body, bytes: body.length, truncated: false, json: 'invalid' },
  };
}

/**
 * Every run of SECRET_PART_LENGTH characters of the secret's part after `sk_`: as it is, as JSON
 * writes it inside a string, and as a query decodes it (a `+` read as a space).
 */
function partsOf(secret: string): string[] {
  const parts: string[] = [];
  for (const text of [secret, JSON.stringify(secret).slice(1, -1), secret.replace(/\+/g, ' ')]) {
    const body = text.slice('sk_'.length);
    for (let i = 0; i + SECRET_PART_LENGTH <= body.length; i++) parts.push(body.slice(i, i + SECRET_PART_LENGTH));
  }
  return parts;
}

for (const [kind, secret] of [
  ['a plain secret', 'sk_Q9vLmT2xRk8NwZpA4sYhJc6uEb1GdFo3'],
  // Plain too; sent raw in a query, it reads with spaces where HAR writes the query decoded.
  ['a plain secret with a + at least every eight', 'sk_Q9vL+T2xR+k8Nw+ZpA4+sYhJ+c6uE'],
  // A character JSON escapes at least every eight: escaped, no run of eight of the secret stays whole.
  ['a secret JSON escapes', 'sk_Q9vL"T2xR\\k8Nw"ZpA4\\sYhJ"c6uE'],
] as const) {
  test(`no report holds a part of ${kind} the log revealed, as it was or escaped`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-redaction-'));
    const broker = new Broker({ keyPrefix: 'sk_', ledgerFile: null, pacer: { perKey: 1e9, anonymous: 1e9, windowMs: 60_000, marginMs: 0 } });
    broker.addRevealedSecret(secret);
    broker.record(exchangeWith(secret), new Uint8Array());
    const published = writeStoppedReport({
      report: sliceSettings(readSettings(['--report-dir', dir], {}, dir)).report,
      startedAt: new Date(0),
      kind: 'interrupted',
      signal: 'SIGTERM',
      because: 'interrupted by SIGTERM',
      results: stoppedResults([], null, 'the run was interrupted'),
      baseUrl: 'http://127.0.0.1:9',
      embedded: false,
      profile: null,
      seed: 1,
      broker,
      stepSummary: false,
    });
    // Clean as written: the leak scan after the reports found nothing to scrub.
    expect(published.leaked).toEqual([]);
    const har = readFileSync(join(dir, 'exchanges.har'), 'utf8');
    expect(har).toContain('[REDACTED]');
    for (const file of readdirSync(dir)) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const part of partsOf(secret)) expect(text.includes(part), `${file} holds "${part}"`).toBe(false);
    }
  });
}
