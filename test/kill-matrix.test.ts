import { describe, expect, test } from 'vitest';
import { KNOWN_SURVIVORS, MUTANTS, type MutantName } from '../mutants/index.js';
import { runAgainstReference } from './support/cli.js';
import { judgeKill } from './support/kill.js';

// Sensitivity is the product: every mutant must be caught on each clause it declares, at the
// declared level, and flag nothing beyond its declared and collateral clauses.

describe.concurrent('kill matrix', () => {
  for (const name of Object.keys(MUTANTS) as MutantName[]) {
    const mutant = MUTANTS[name];
    const survivor = KNOWN_SURVIVORS[name];
    test.skipIf(survivor !== undefined)(`${name} is caught on ${Object.keys(mutant.breaks).join(', ')}`, async () => {
      const run = await runAgainstReference({ modify: mutant.modify });
      const verdict = judgeKill(mutant, run.report);
      expect(verdict.missed, `${name} survived`).toEqual([]);
      expect(verdict.unexpected, `${name} tripped undeclared clauses`).toEqual([]);
      const mustFail = Object.values(mutant.breaks).includes('fail');
      expect(run.exitCode).toBe(mustFail ? 1 : 0);
    });
  }
});
