import { bucketOfCredential } from '../../http/client.js';
import { bucketOf } from '../../http/request.js';
import { baselineExitCode } from '../../report/baseline.js';
import { publishRun } from '../../report/publish.js';
import { verdictLines } from '../../report/terminal.js';
import { certificationVerdict } from '../../verdict/certification.js';
import { clauseResults, verdictOf } from '../../verdict/verdict.js';
import { liveKeysLine } from '../live-keys.js';
import { scheduleRecord } from '../schedule-record.js';
import type { ReportSlice } from '../slices.js';
import type { TornDown } from './teardown.js';

/**
 * The publish stage (`report/publish.ts`): the clause results and the verdict, the report files
 * with the plan beside what the run did, the verdict's lines; returns the exit status. A secret
 * found in the console or a report makes the run inconclusive (exit 2); with a baseline, only a
 * regression fails the gate.
 */
export function publishStage(input: TornDown, report: ReportSlice): number {
  const { plan, target, broker, collector, io } = input;
  const results = clauseResults(collector.records, plan.clauses);
  input.stops.provisional.close();
  input.harEntries.stop();
  const { document, verdict, published } = publishRun({
    document: {
      results,
      baseUrl: target.baseUrl,
      embedded: input.embedded,
      ...(target.note ? { targetNote: target.note } : {}),
      profile: target.loaded,
      mode: report.mode,
      argv: report.argv,
      settings: report.shown,
      seed: plan.seed,
      startedAt: input.startedAt,
      endedAt: new Date(),
      log: broker.log(),
      waitedMs: broker.pacer.waitedMs,
      schedule: scheduleRecord(plan.schedule, plan.at - input.startedAt.getTime(), broker.log(), {
        main: bucketOfCredential('main', target.keys),
        pool: input.pool.keys.map((key) => bucketOf(`Bearer ${key}`)),
        other: target.keys.other !== null ? bucketOfCredential('other', target.keys) : null,
      }),
      ledger: broker.ledger.entries,
      preflightNotes: input.preflight.notes,
    },
    suiteFaults: collector.suiteFaults,
    judge: (suiteFaults) => {
      const plain = verdictOf(results, { strict: plan.strict, requireComplete: plan.requireComplete, suiteFaults });
      return plan.certify ? certificationVerdict(plain, results, plan.clauses) : plain;
    },
    redactor: broker.redactor,
    baseline: input.baseline,
    dir: report.reportDir,
    signingKey: input.signingKey,
    harEntries: input.harEntries,
  });
  const leaked = [...published.leaked];
  if (input.guarded.leaks > 0) leaked.push('the console output');
  if (leaked.length > 0) {
    io.err(`SECRET LEAK: a secret was found and scrubbed in ${leaked.join(', ')}; the run is inconclusive`);
    return 2;
  }
  for (const line of verdictLines(document, published.files)) io.out(line);
  if (input.left.length > 0) io.out(liveKeysLine(input.left, report, input.teardown.foundKeyPath));
  return document.baseline ? baselineExitCode(verdict.exitCode, document.baseline, plan.requireComplete) : verdict.exitCode;
}
