import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REDACTED, Redactor } from '../src/secrets/redactor.js';
import { guardOutput, scrubReports } from '../src/secrets/leak-scan.js';

const KEY = 'sk_Q9vLmT2xRk8NwZpA4sYhJc6uEb1GdFo3';

function redactor(): Redactor {
  const r = new Redactor();
  r.add(KEY, 'sk_');
  return r;
}

describe('end-of-run leak scan', () => {
  test('finds a secret in any file under the report folder, in any spelling, and scrubs it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'leak-scan-'));
    mkdirSync(join(dir, 'nested'));
    writeFileSync(join(dir, 'clean.json'), '{"verdict":"conformant"}');
    writeFileSync(join(dir, 'raw.txt'), `token ${KEY}`);
    writeFileSync(join(dir, 'nested', 'basic.txt'), `authorization: Basic ${Buffer.from(`${KEY}:`).toString('base64')}`);
    writeFileSync(join(dir, 'url.txt'), `?key=${encodeURIComponent(KEY)}`);
    writeFileSync(join(dir, 'tail.txt'), `"hint": "…${KEY.slice(-10)}"`);
    const scrubbed = scrubReports(dir, redactor())
      .map((f) => f.slice(dir.length + 1))
      .sort();
    expect(scrubbed).toEqual(['nested/basic.txt', 'raw.txt', 'tail.txt', 'url.txt']);
    for (const file of scrubbed) expect(readFileSync(join(dir, file), 'utf8')).toContain(REDACTED);
    expect(scrubReports(dir, redactor())).toEqual([]);
  });

  test('covers the HAR and CTRF files like every report: a key in an entry of exchanges.har is scrubbed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'leak-scan-'));
    const entry = { request: { headers: [{ name: 'Authorization', value: `Bearer ${KEY}` }] }, response: { content: { text: JSON.stringify({ key: KEY }) } } };
    writeFileSync(join(dir, 'exchanges.har'), JSON.stringify({ log: { version: '1.2', entries: [entry] } }, null, 1));
    writeFileSync(join(dir, 'ctrf.json'), JSON.stringify({ results: { tests: [{ name: 'KEY-1', message: `saw ${KEY}` }] } }));
    expect(
      scrubReports(dir, redactor())
        .map((f) => f.slice(dir.length + 1))
        .sort(),
    ).toEqual(['ctrf.json', 'exchanges.har']);
    const har = readFileSync(join(dir, 'exchanges.har'), 'utf8');
    expect(har).not.toContain(KEY.slice(3, 11));
    expect(JSON.parse(har).log.entries[0].request.headers[0].value).toBe(`Bearer ${REDACTED}`);
  });

  test('scrubs a console line that carries a secret and counts it', () => {
    const lines: string[] = [];
    const io = guardOutput({ out: (l) => lines.push(l), err: (l) => lines.push(l) }, redactor());
    io.out('verdict: conformant');
    io.err(`failed with Bearer ${KEY}`);
    expect(lines).toEqual(['verdict: conformant', `failed with Bearer ${REDACTED}`]);
    expect(io.leaks).toBe(1);
  });
});
