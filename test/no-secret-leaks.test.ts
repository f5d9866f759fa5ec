import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runAgainstReference } from './support/cli.js';

// Issue 5: the suite handles live secrets and must never write one. The whole suite runs against
// a reference that records every key it issues; every byte the run produced is then searched.

/** Every spelling of a secret the search looks for, written here independently of the redactor. */
function spellings(secret: string, prefix: string): string[] {
  const out = [secret, encodeURIComponent(secret)];
  const bytes = Buffer.from(secret);
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const middle = encoded.slice(shift === 0 ? 0 : 4, Math.floor((bytes.length + shift) / 3) * 4);
    out.push(middle, middle.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  // "A part of the secret": 8 consecutive characters after the prefix (clause catalogue, KEY).
  const body = secret.startsWith(prefix) ? secret.slice(prefix.length) : secret;
  for (let i = 0; i + 8 <= body.length; i++) out.push(body.slice(i, i + 8));
  return out;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test('a whole run writes no secret anywhere: stdout, stderr and every report file', async () => {
  const issued: string[] = [];
  const run = await runAgainstReference({
    modify: ({ state }) => {
      const create = state.store.createKey.bind(state.store);
      state.store.createKey = (account, name) => {
        const created = create(account, name);
        issued.push(created.secret);
        return created;
      };
    },
  });
  const secrets = [run.target.keys.main, run.target.keys.other, ...issued];
  // The run did create keys and reveal them, or the search proves nothing.
  expect(issued.length).toBeGreaterThan(5);
  expect(run.exitCode).toBe(0);

  const outputs: [string, string][] = [
    ['stdout', run.stdout],
    ['stderr', run.stderr],
    ...filesUnder(run.reportDir).map((file): [string, string] => [file, readFileSync(file, 'latin1')]),
  ];
  expect(outputs.length).toBeGreaterThan(4);
  const found: string[] = [];
  for (const [where, text] of outputs) {
    for (const [index, secret] of secrets.entries()) {
      if (spellings(secret, 'sk_').some((form) => text.includes(form))) found.push(`secret ${index} in ${where}`);
    }
  }
  expect(found).toEqual([]);
});
