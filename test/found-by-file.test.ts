import { readdirSync } from 'node:fs';
import { expect, test } from 'vitest';
import { ALTERNATE_PROFILE_SAMPLE, KNOWN_SURVIVORS, MUTANTS, mutantNamed } from '../mutants/index.js';
import type { Mutant } from '../mutants/mutant.js';
import { isClauseId } from '../src/clauses/catalogue.js';
import { ROOT } from './support/cli.js';
import { DOCUMENT_ONLY_SAMPLE, VARIANTS, variantNamed } from '../variants/index.js';

// Mutants and variants are found by their files (mutants/discover.ts): adding one is adding its file.

test('every file of mutants/ but the index, the definition and the shared hooks is a mutant, by its name', () => {
  const files = readdirSync(`${ROOT}mutants`)
    .filter((f) => f.endsWith('.ts') && !['index.ts', 'mutant.ts', 'support.ts', 'discover.ts'].includes(f))
    .map((f) => f.slice(0, -'.ts'.length));
  expect(Object.keys(MUTANTS)).toEqual(files.sort());
  for (const mutant of Object.values(MUTANTS)) expect(Object.keys(mutant.breaks).every(isClauseId)).toBe(true);
});

test('every fault of a blind batch (mutants/batches/N/, run by scripts/try-batch.ts, not by the kill matrix) is a mutant on catalogue clauses', async () => {
  const batches = `${ROOT}mutants/batches`;
  for (const batch of readdirSync(batches)) {
    for (const file of readdirSync(`${batches}/${batch}`).filter((f) => f.endsWith('.ts'))) {
      const mutant = ((await import(`${batches}/${batch}/${file}`)) as { default?: Mutant }).default;
      expect(typeof mutant?.modify, `${batch}/${file}`).toBe('function');
      expect(Object.keys(mutant!.breaks).every(isClauseId), `${batch}/${file}`).toBe(true);
    }
  }
});

test('the lists that name mutants name only mutants that have a file', () => {
  for (const name of [...ALTERNATE_PROFILE_SAMPLE, ...Object.keys(KNOWN_SURVIVORS)]) expect(() => mutantNamed(name), name).not.toThrow();
  expect(() => mutantNamed('no-such-mutant')).toThrow(/no file mutants\/no-such-mutant\.ts/);
});

test('variants are found by their files too', () => {
  const files = readdirSync(`${ROOT}variants`)
    .filter((f) => f.endsWith('.ts') && !['index.ts', 'variant.ts', 'open-points.ts'].includes(f))
    .map((f) => f.slice(0, -'.ts'.length));
  expect(Object.keys(VARIANTS)).toEqual(files.sort());
  for (const name of DOCUMENT_ONLY_SAMPLE) expect(() => variantNamed(name), name).not.toThrow();
});
