import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CAUGHT_ELSEWHERE, MUTANTS, mutantNamed } from '../mutants/index.js';
import { mutantSource } from '../scripts/fingerprints.js';
import { diagnoseObservations } from '../src/diagnosis/diagnose.js';
import { loadFingerprints, shapeOf } from '../src/diagnosis/fingerprint.js';
import { readReport, sharedRun } from './support/cli.js';

// The diagnosis (src/diagnosis/): a run's failures matched against the fingerprints of the known
// defects, the mutants' (fixtures/fingerprints.json, `npm run fingerprints`). Honest by construction:
// it is current, it names no defect with high confidence that is not the one, and it says nothing
// where nothing failed.

const fingerprints = loadFingerprints();

describe('the fingerprints of the known defects', () => {
  test('every mutant has one, of its file as it is now (regenerate with npm run fingerprints)', () => {
    expect(Object.keys(fingerprints.mutants).sort()).toEqual(Object.keys(MUTANTS).sort());
    const stale = Object.entries(fingerprints.mutants).filter(([name, print]) => print.source !== mutantSource(name));
    expect(stale.map(([name]) => name)).toEqual([]);
  });

  test("a reason's shape keeps its words and drops what changes from run to run", () => {
    expect(shapeOf('X-RateLimit-Remaining went from 49 to 49 over a sequential request (GET /api/v1/records) in the same window')).toBe(
      'x-ratelimit-remaining went from # to # over a sequential request (get path in the same window',
    );
    expect(shapeOf('has_more true on page 3 of 3 (input {"limit":7})')).toBe('has_more true on page # of #');
    expect(shapeOf('the key list does not show the key named conformance-20261128t053001-66dc33-never-used')).toBe(
      'the key list does not show the key named name',
    );
  });
});

describe('leave-one-out: a known defect left out of the fingerprints', () => {
  test('its own observations are never diagnosed as another defect with high confidence, unless that one shows exactly the same', () => {
    const wrong: string[] = [];
    for (const [name, print] of Object.entries(fingerprints.mutants)) {
      for (const d of diagnoseObservations(print.observations, fingerprints, name)) {
        for (const cause of d.causes.filter((c) => c.confidence === 'high')) {
          const twin = fingerprints.mutants[cause.defect]!.observations.filter((o) => o.startsWith(`${d.clause}/`)).join('\n');
          const own = print.observations.filter((o) => o.startsWith(`${d.clause}/`)).join('\n');
          // Two defects that leave the same observations on a clause cannot be told apart there: both are named when both are known.
          if (twin !== own) wrong.push(`${name}: ${d.clause} diagnosed as ${cause.defect} (${cause.score})`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  test('with every fingerprint known, each defect is the first likely cause on a clause it breaks', () => {
    // A defect the loopback run cannot show (CAUGHT_ELSEWHERE) leaves no observation there to be known by.
    const notFirst = Object.entries(fingerprints.mutants).filter(([name, print]) => {
      if (CAUGHT_ELSEWHERE[name] !== undefined) return false;
      const declared = new Set(Object.keys(mutantNamed(name as keyof typeof MUTANTS).breaks));
      const diagnoses = diagnoseObservations(print.observations, fingerprints).filter((d) => declared.has(d.clause));
      return !diagnoses.some((d) => d.causes.some((c) => c.defect === name && c.score === d.causes[0]!.score));
    });
    expect(notFirst.map(([name]) => name)).toEqual([]);
  });
});

test('a run with no failure and no warning shows no likely cause in any report', async () => {
  const result = await sharedRun([]);
  expect(readReport(result).diagnosis).toEqual([]);
  expect(readFileSync(join(result.reportDir, 'summary.md'), 'utf8')).not.toMatch(/likely cause/i);
  expect(readFileSync(join(result.reportDir, 'junit.xml'), 'utf8')).not.toMatch(/likely cause/i);
}, 240_000);
