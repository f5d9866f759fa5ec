import { describe, expect, test } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALTERNATE_PROFILE_SAMPLE, CAUGHT_ELSEWHERE, KNOWN_SURVIVORS, MUTANTS, mutantNamed, type MutantName } from '../mutants/index.js';
import { referenceProfile } from '../reference/server.js';
import { loadProfile, type Profile } from '../src/profile/profile.js';
import { ROOT, runAgainstReference } from './support/cli.js';
import { judgeKill, killRun, touchesRate } from './support/kill.js';

// Sensitivity is the product: every mutant must be caught on each clause it declares, at the
// declared level, and flag nothing beyond its declared and collateral clauses among the families
// its run selects (test/support/kill.ts). Matrix runs are made fast as test/support/matrix.ts says.

async function expectCaught(name: MutantName, profile: Profile = referenceProfile()): Promise<void> {
  const mutant = mutantNamed(name);
  const { target, args } = killRun(mutant, profile);
  const run = await runAgainstReference(target, args);
  const verdict = judgeKill(mutant, run.report);
  expect(verdict.missed, `${name} survived`).toEqual([]);
  expect(verdict.unexpected, `${name} tripped undeclared clauses`).toEqual([]);
  const mustFail = Object.values(mutant.breaks).includes('fail');
  expect(run.exitCode).toBe(mustFail ? 1 : 0);
}

const title = (name: MutantName) => `${name} is caught on ${Object.keys(mutantNamed(name).breaks).join(', ')}`;

// One run each, and no second chance: on the simulated clock (test/support/matrix.ts) no window
// boundary falls where the machine's load puts it, so a mutant caught once is caught every time.

// Mutants of the rate-limit clauses exhaust budgets, the costliest runs: they start first, so that
// the matrix does not end on a tail of them while the cores sit idle.
const byCost = (names: readonly MutantName[]) => [...names].sort((a, b) => Number(touchesRate(mutantNamed(b))) - Number(touchesRate(mutantNamed(a))));

describe.concurrent('kill matrix', () => {
  const alternate = loadProfile(`${ROOT}profiles/alternate.json`).profile;
  for (const name of byCost(Object.keys(MUTANTS) as MutantName[])) {
    test.skipIf(KNOWN_SURVIVORS[name] !== undefined || CAUGHT_ELSEWHERE[name] !== undefined)(title(name), () => expectCaught(name));
  }
  for (const name of byCost(ALTERNATE_PROFILE_SAMPLE)) {
    test(`${title(name)} under the alternate profile`, () => expectCaught(name, alternate));
  }
});

test('a mutant the matrix leaves to another test is caught there: the test exists and runs it by name', () => {
  for (const [name, file] of Object.entries(CAUGHT_ELSEWHERE)) {
    expect(existsSync(join(ROOT, file!)), `${name}: ${file}`).toBe(true);
    expect(readFileSync(join(ROOT, file!), 'utf8'), `${name}: ${file}`).toContain(`'${name}'`);
    expect(() => mutantNamed(name)).not.toThrow();
  }
});
