import { describe, expect, test } from 'vitest';
import { ALTERNATE_PROFILE_SAMPLE, KNOWN_SURVIVORS, MUTANTS, type MutantName } from '../mutants/index.js';
import { loadProfile, type Profile } from '../src/profile/profile.js';
import { ROOT, runAgainstReference } from './support/cli.js';
import { judgeKill } from './support/kill.js';

// Sensitivity is the product: every mutant must be caught on each clause it declares, at the
// declared level, and flag nothing beyond its declared and collateral clauses.

async function expectCaught(name: MutantName, profile?: Profile): Promise<void> {
  const mutant = MUTANTS[name];
  const run = await runAgainstReference({ modify: mutant.modify, ...(profile ? { profile } : {}) });
  const verdict = judgeKill(mutant, run.report);
  expect(verdict.missed, `${name} survived`).toEqual([]);
  expect(verdict.unexpected, `${name} tripped undeclared clauses`).toEqual([]);
  const mustFail = Object.values(mutant.breaks).includes('fail');
  expect(run.exitCode).toBe(mustFail ? 1 : 0);
}

const title = (name: MutantName) => `${name} is caught on ${Object.keys(MUTANTS[name].breaks).join(', ')}`;

describe.concurrent('kill matrix', () => {
  for (const name of Object.keys(MUTANTS) as MutantName[]) {
    test.skipIf(KNOWN_SURVIVORS[name] !== undefined)(title(name), () => expectCaught(name));
  }
});

describe.concurrent('kill matrix under the alternate profile', () => {
  const alternate = loadProfile(`${ROOT}profiles/alternate.json`).profile;
  for (const name of ALTERNATE_PROFILE_SAMPLE) {
    test(title(name), () => expectCaught(name, alternate));
  }
});
