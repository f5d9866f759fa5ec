import { describe, expect, test } from 'vitest';
import { ALTERNATE_PROFILE_SAMPLE, KNOWN_SURVIVORS, MUTANTS, type MutantName } from '../mutants/index.js';
import { referenceProfile } from '../reference/server.js';
import { loadProfile, type Profile } from '../src/profile/profile.js';
import { ROOT, runAgainstReference } from './support/cli.js';
import { judgeKill } from './support/kill.js';

// Sensitivity is the product: every mutant must be caught on each clause it declares, at the
// declared level, and flag nothing beyond its declared and collateral clauses.
//
// To keep some seventy full runs within minutes, mutants run under a fast variant of the profile
// (1000 requests a window instead of 100, so pacing rarely waits) with 25 generated cases per
// property instead of 100. Every check has fixed cases besides its properties, so this costs no
// sensitivity: a mutant caught only by luck of the draw would show here as a flaky survivor.
const MATRIX_ARGS: readonly string[] = ['--property-runs', '25'];

// Mutants of the rate-limit clauses keep the real ceiling: exhausting 1000 requests inside one
// second is more than a loaded machine can send, and their checks would be skipped.
function matrixProfile(profile: Profile, name: MutantName): Profile {
  if (Object.keys(MUTANTS[name].breaks).some((id) => id.startsWith('RATE-'))) return profile;
  return { ...profile, limits: { ...profile.limits, perKeyPerMinute: 1000 } };
}

// Exhausting a key under that ceiling costs 1,000 to 2,000 requests, half of a run, and proves
// nothing about a fault elsewhere: a mutant that touches no rate-limit clause (declared or
// collateral) leaves out the checks that exhaust a budget. The rate-limit judges over the whole
// run's responses (RATE-1, -2, -8, -9) still run, so a stray header fault would still show.
const EXHAUSTING_CHECKS = ['RATE-3', 'RATE-4', 'RATE-5', 'RATE-6', 'RATE-7'];

function touchesRate(name: MutantName): boolean {
  const { breaks, collateral = [] } = MUTANTS[name];
  return [...Object.keys(breaks), ...collateral].some((id) => id.startsWith('RATE-'));
}

function matrixArgs(name: MutantName): readonly string[] {
  return touchesRate(name) ? MATRIX_ARGS : [...MATRIX_ARGS, '--skip', EXHAUSTING_CHECKS.join(',')];
}

async function expectCaught(name: MutantName, profile: Profile = referenceProfile()): Promise<void> {
  const mutant = MUTANTS[name];
  const run = await runAgainstReference({ modify: mutant.modify, profile: matrixProfile(profile, name) }, matrixArgs(name));
  const verdict = judgeKill(mutant, run.report);
  expect(verdict.missed, `${name} survived`).toEqual([]);
  expect(verdict.unexpected, `${name} tripped undeclared clauses`).toEqual([]);
  const mustFail = Object.values(mutant.breaks).includes('fail');
  expect(run.exitCode).toBe(mustFail ? 1 : 0);
}

const title = (name: MutantName) => `${name} is caught on ${Object.keys(MUTANTS[name].breaks).join(', ')}`;

// A mutant whose fault shows only inside a one-second window (a Retry-After rounded down, a
// burst that must fit one window) can be missed when a request lands on a window boundary of the
// embedded target, a few times in a hundred: it gets a second run, and must be caught in one.
const RETRY = { retry: 1 } as const;

// Mutants of the rate-limit clauses run under the real ceiling and mostly wait on it: they start
// first, so that the matrix does not end on a tail of them while the cores sit idle.
const byCost = (names: readonly MutantName[]) => [...names].sort((a, b) => Number(touchesRate(b)) - Number(touchesRate(a)));

describe.concurrent('kill matrix', () => {
  const alternate = loadProfile(`${ROOT}profiles/alternate.json`).profile;
  for (const name of byCost(Object.keys(MUTANTS) as MutantName[])) {
    test.skipIf(KNOWN_SURVIVORS[name] !== undefined)(title(name), RETRY, () => expectCaught(name));
  }
  for (const name of byCost(ALTERNATE_PROFILE_SAMPLE)) {
    test(`${title(name)} under the alternate profile`, RETRY, () => expectCaught(name, alternate));
  }
});
