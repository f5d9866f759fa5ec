import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MUTANTS, mutantNamed, type MutantName } from '../mutants/index.js';
import { referenceProfile } from '../reference/server.js';
import { FINGERPRINTS_FILE, observationsOf, type Fingerprints } from '../src/diagnosis/fingerprint.js';
import type { ConformanceDocument } from '../src/report/document.js';
import { runAgainstReference } from '../test/support/cli.js';
import { judgeKill, killRun } from '../test/support/kill.js';

// `npm run fingerprints [-- --only NAME,...]`: every mutant's kill-matrix run (or those named), at a fixed seed, and the observations its
// failures and warnings leave (src/diagnosis/fingerprint.ts), written to fixtures/fingerprints.json:
// the map from symptoms to known defects that a run's diagnosis reads. `node --import tsx
// scripts/fingerprints.ts --seed N --check` runs them at another seed and prints how often each
// mutant's own sentence ranks first, without writing.

/** The digest of a mutant's file: its fingerprint is current while the file is unchanged. */
export function mutantSource(name: string): string {
  return createHash('sha256')
    .update(readFileSync(fileURLToPath(new URL(`../mutants/${name}.ts`, import.meta.url))))
    .digest('hex')
    .slice(0, 16);
}

/** The observations of every flagged check of a report. */
export function reportObservations(report: ConformanceDocument): string[] {
  return observationsOf(report.clauses.flatMap((c) => c.checks));
}

/** Each mutant's run at `seed`, three at a time. */
export async function runMutants(
  seed: number,
  names: readonly MutantName[] = Object.keys(MUTANTS) as MutantName[],
): Promise<Map<MutantName, ConformanceDocument>> {
  const out = new Map<MutantName, ConformanceDocument>();
  let next = 0;
  const lane = async () => {
    while (next < names.length) {
      const name = names[next++]!;
      const { target, args } = killRun(mutantNamed(name), referenceProfile());
      // A run that did not catch the mutant on its clauses (a loaded machine: a burst too slow to
      // prove anything) leaves no fingerprint of it: made again, as the kill matrix retries it.
      let report: ConformanceDocument | null = null;
      for (let attempt = 1; attempt <= 3 && (report === null || judgeKill(mutantNamed(name), report).missed.length > 0); attempt++) {
        report = (await runAgainstReference(target, [...args, '--seed', String(seed)])).report;
      }
      out.set(name, report!);
      process.stderr.write(`${out.size}/${names.length} ${name}\n`);
    }
  };
  await Promise.all([lane(), lane(), lane()]);
  return out;
}

export const FINGERPRINT_SEED = 1;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const seedAt = process.argv.indexOf('--seed');
  const seed = seedAt > 0 ? Number(process.argv[seedAt + 1]) : FINGERPRINT_SEED;
  // `--only a,b`: those mutants' fingerprints made again, the others kept.
  const onlyAt = process.argv.indexOf('--only');
  const only = onlyAt > 0 ? (process.argv[onlyAt + 1]!.split(',') as MutantName[]) : null;
  const runs = await runMutants(seed, only ?? undefined);
  const kept = only ? (JSON.parse(readFileSync(FINGERPRINTS_FILE, 'utf8')) as Fingerprints).mutants : {};
  const mutants: Record<string, Fingerprints['mutants'][string]> = {};
  for (const name of (Object.keys(MUTANTS) as MutantName[]).sort()) {
    const run = runs.get(name);
    mutants[name] = run ? { sentence: mutantNamed(name).description, source: mutantSource(name), observations: reportObservations(run) } : kept[name]!;
  }
  const fingerprints: Fingerprints = { measuredWith: { seed, propertyRuns: 25 }, mutants };
  if (process.argv.includes('--check')) {
    const { diagnose } = await import('../src/diagnosis/diagnose.js');
    const known = JSON.parse(readFileSync(FINGERPRINTS_FILE, 'utf8')) as Fingerprints;
    let first = 0;
    const misses: string[] = [];
    for (const [name, report] of runs) {
      const declared = new Set(Object.keys(mutantNamed(name).breaks));
      const diagnoses = diagnose(
        report.clauses.flatMap((c) => c.checks),
        known,
      ).filter((d) => declared.has(d.clause));
      const top = diagnoses.flatMap((d) => d.causes.slice(0, 1).map((c) => c.defect));
      if (top.includes(name)) first++;
      else misses.push(`${name}: ${diagnoses.map((d) => `${d.clause} -> ${d.causes.map((c) => `${c.defect} ${c.score}`).join(', ') || 'none'}`).join('; ')}`);
    }
    process.stdout.write(`seed ${seed}: the mutant's own sentence first on a clause it breaks for ${first} of ${runs.size}\n${misses.join('\n')}\n`);
  } else {
    writeFileSync(FINGERPRINTS_FILE, `${JSON.stringify(fingerprints, null, 1)}\n`);
    process.stdout.write(`wrote ${FINGERPRINTS_FILE}: ${Object.keys(mutants).length} fingerprints at seed ${seed}\n`);
  }
}
