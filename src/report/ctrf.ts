import { likelyCauseLines } from '../diagnosis/diagnose.js';
import { randomUUID } from 'node:crypto';
import type { Exchange } from '../http/exchange.js';
import type { ClauseStatus } from '../verdict/verdict.js';
import type { ConformanceDocument } from './document.js';
import { originOf } from './exchange-origin.js';

/** CTRF's test statuses, as the `ctrf` package names them. */
type CtrfStatus = 'passed' | 'failed' | 'skipped' | 'pending' | 'other';

/**
 * What each clause status becomes in CTRF, as in JUnit (`junit.ts`): only what fails the verdict
 * fails; a SHOULD warning passes (its reason is the message); `error` (the check could not judge)
 * is CTRF's `other`, its `rawStatus` saying which.
 */
const STATUS: Record<ClauseStatus, CtrfStatus> = {
  pass: 'passed',
  warn: 'passed',
  fail: 'failed',
  error: 'other',
  skipped: 'skipped',
  not_applicable: 'skipped',
};

/** One test of `results.tests`, as much of CTRF's `Test` as a clause fills. */
interface CtrfTest {
  name: string;
  status: CtrfStatus;
  rawStatus: string;
  duration: number;
  suite: string[];
  message?: string;
  trace?: string;
  tags?: string[];
  type?: string;
  retries?: number;
  extra?: Record<string, unknown>;
}

/** The CTRF version the document follows (the `ctrf` package's current one). */
const SPEC_VERSION = '0.0.0';

/**
 * `ctrf.json` (the Common Test Report Format, https://ctrf.io): one test per clause with its
 * status and message, and per clause the requests its checks sent and how many of them were
 * retried (each retry is an exchange of its own in the log, naming the attempt it repeats with
 * `retryOf`): CTRF's `retries`. A run that did not reach a verdict adds a failed test `run`, as
 * `junit.xml` does, so that no reporter shows it green.
 */
export function renderCtrf(doc: ConformanceDocument, log: readonly Exchange[]): string {
  const start = Date.parse(doc.startedAt);
  const stop = Date.parse(doc.endedAt);
  const attempts = attemptsByCheck(log);
  const tests: CtrfTest[] = doc.clauses.map((clause) => {
    const checks = clause.checks.map((check) => {
      const a = attempts.get(`${clause.id} ${check.title}`) ?? { exchanges: 0, retries: 0 };
      return { key: check.key, title: check.title, status: check.status, requests: a.exchanges - a.retries, retries: a.retries };
    });
    const retries = checks.reduce((n, c) => n + c.retries, 0);
    const failed = clause.checks.find((c) => c.status === clause.status);
    const curl = failed?.repro?.curl?.[0];
    return {
      name: `${clause.id} ${clause.summary}`,
      status: STATUS[clause.status],
      rawStatus: clause.status,
      duration: 0,
      suite: [clause.family],
      ...(clause.status !== 'pass' ? { message: `${clause.id} (${clause.level}): ${clause.reason ?? clause.status}` } : {}),
      ...(curl
        ? {
            trace: `check: ${failed!.title}\nreproduce: ${curl}${likelyCauseLines(doc, clause.id)
              .map((l) => `\n${l}`)
              .join('')}`,
          }
        : {}),
      tags: [clause.level, clause.family],
      type: 'conformance',
      retries,
      extra: { clause: clause.id, level: clause.level, section: clause.section, attempts: checks.reduce((n, c) => n + c.requests + c.retries, 0), checks },
    };
  });
  const because = doc.stopped?.headline ?? (doc.verdict === 'inconclusive' ? `run inconclusive: ${doc.because}` : null);
  if (because) tests.push({ name: because, status: 'failed', rawStatus: 'inconclusive', duration: 0, suite: ['run'], message: doc.because });
  const count = (status: CtrfStatus) => tests.filter((t) => t.status === status).length;
  const report = {
    reportFormat: 'CTRF',
    specVersion: SPEC_VERSION,
    reportId: randomUUID(),
    timestamp: doc.endedAt,
    generatedBy: 'api-v1-conformance',
    results: {
      tool: { name: 'api-v1-conformance', version: doc.suite.version },
      summary: {
        tests: tests.length,
        passed: count('passed'),
        failed: count('failed'),
        skipped: count('skipped'),
        pending: count('pending'),
        other: count('other'),
        start,
        stop,
        duration: doc.durationMs,
        extra: { verdict: doc.verdict, complete: doc.complete, requests: doc.environment.requests, retries: log.filter((e) => e.retryOf !== undefined).length },
      },
      tests,
      environment: { testEnvironment: doc.target.baseUrl },
      extra: { verdict: doc.verdict, complete: doc.complete, because: doc.because, seed: doc.seed },
    },
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** Exchanges and retries by the check that sent them (`<clause> <title>`, as the log names it). */
function attemptsByCheck(log: readonly Exchange[]): Map<string, { exchanges: number; retries: number }> {
  const by = new Map<string, { exchanges: number; retries: number }>();
  for (const e of log) {
    const { clause, check } = originOf(e);
    if (!clause) continue;
    const name = `${clause} ${check}`;
    const a = by.get(name) ?? { exchanges: 0, retries: 0 };
    a.exchanges++;
    if (e.retryOf !== undefined) a.retries++;
    by.set(name, a);
  }
  return by;
}
