import { exploredLines } from './explored.js';
import { likelyCauseLines } from '../diagnosis/diagnose.js';
import { FAMILIES, type Family } from '../clauses/catalogue.js';
import type { Exchange } from '../http/exchange.js';
import type { ClauseStatus } from '../verdict/verdict.js';
import type { ConformanceDocument } from './document.js';
import { leftOnTarget } from './footprint.js';
import { networkProperties } from './network.js';

/**
 * What each clause status becomes in JUnit. Only what fails the verdict fails there: a SHOULD
 * warning passes (under `--strict` the clause is `fail` already), with its reason as output.
 */
const ELEMENT: Record<ClauseStatus, 'failure' | 'error' | 'skipped' | null> = {
  pass: null,
  warn: null,
  fail: 'failure',
  error: 'error',
  skipped: 'skipped',
  not_applicable: 'skipped',
};

/** Characters of an evidence body shown in a `<failure>`: the CI page shows the start; the report has the rest. */
const BODY_SHOWN = 1000;

/**
 * `junit.xml` for CI pages, in the common (Ant/Jenkins) JUnit shape that GitHub, GitLab, Jenkins
 * and Azure read: one `<testsuite>` per clause family, one `<testcase>` per clause named with its
 * ID (its checks are the detail), `classname` the family. A `<skipped>` says why; a `<failure>`
 * carries the one-line reason as its message and, as its text, the first exchange of evidence
 * (already redacted) and the curl line that repeats it. A run that did not reach a verdict, or
 * that left a key live, adds a failing case of the suite "run", so that no CI page shows green.
 */
export function renderJunit(doc: ConformanceDocument): string {
  const suites = FAMILIES.map((family) => familySuite(doc, family)).filter((s) => s.cases.length > 0);
  const run = runSuite(doc);
  if (run.cases.length > 0) suites.push(run);
  const total = (key: 'tests' | 'failures' | 'errors' | 'skipped') => suites.reduce((n, s) => n + s[key], 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="API v1 conformance" tests="${total('tests')}" failures="${total('failures')}" errors="${total('errors')}" skipped="${total('skipped')}" time="${seconds(doc.durationMs)}">`,
  ];
  suites.forEach((suite, id) => {
    lines.push(
      `  <testsuite name="${attr(suite.name)}" id="${id}" package="api-v1" hostname="${attr(hostOf(doc.target.baseUrl))}" timestamp="${doc.startedAt.slice(0, 19)}" tests="${suite.tests}" failures="${suite.failures}" errors="${suite.errors}" skipped="${suite.skipped}" time="0">`,
      // What the network did, once, in the first suite (where Jenkins and Azure show a suite's properties).
      ...(id === 0 && doc.network ? propertiesOf(networkProperties(doc.network)) : []),
      ...suite.cases.map((c) => `    ${c}`),
      '  </testsuite>',
    );
  });
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

function propertiesOf(pairs: readonly [string, string][]): string[] {
  return ['    <properties>', ...pairs.map(([name, value]) => `      <property name="${attr(name)}" value="${attr(value)}"/>`), '    </properties>'];
}

interface Suite {
  name: string;
  cases: string[];
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

function familySuite(doc: ConformanceDocument, family: Family): Suite {
  const suite: Suite = { name: family, cases: [], tests: 0, failures: 0, errors: 0, skipped: 0 };
  for (const clause of doc.clauses.filter((c) => c.family === family)) {
    const element = ELEMENT[clause.status];
    const open = `<testcase classname="${attr(family)}" name="${attr(`${clause.id} ${clause.summary}`)}" time="0"`;
    suite.tests++;
    const checks = clause.checks
      .flatMap((c) => [`${c.status}: ${c.title}${c.reason ? ` (${c.reason})` : ''}`, ...(c.explored ? exploredLines(c.explored) : [])])
      .join('\n');
    const out = checks ? `<system-out>${text(`${clause.level} clause, ${clause.status}\n${checks}`)}</system-out>` : '';
    if (element === null) {
      suite.cases.push(`${open}>${out}</testcase>`);
    } else if (element === 'skipped') {
      suite.skipped++;
      suite.cases.push(`${open}><skipped message="${attr(clause.reason ?? clause.status)}"/>${out}</testcase>`);
    } else {
      suite[element === 'failure' ? 'failures' : 'errors']++;
      const failed = clause.checks.find((c) => c.status === clause.status) ?? clause.checks[0];
      const evidence = failed?.evidence?.[0];
      const curl = failed?.repro?.curl?.[0];
      const body = [
        `${clause.id} (${clause.level}): ${clause.reason ?? clause.status}`,
        ...(failed ? [`check: ${failed.title}`] : []),
        ...(evidence ? ['', describe(evidence)] : []),
        ...(curl ? ['', `reproduce: ${curl}`] : []),
        ...(failed?.repro?.seed !== undefined ? [`property seed ${failed.repro.seed}, path ${failed.repro.path ?? '?'}`] : []),
        ...likelyCauseLines(doc, clause.id),
      ].join('\n');
      suite.cases.push(
        `${open}><${element} message="${attr(clause.reason ?? clause.status)}" type="${attr(clause.level)}">${text(body)}</${element}>${out}</testcase>`,
      );
    }
  }
  return suite;
}

/** Failing cases for what is not a clause: a run that stopped short, a verdict that is not one, a key left live. */
function runSuite(doc: ConformanceDocument): Suite {
  const suite: Suite = { name: 'run', cases: [], tests: 0, failures: 0, errors: 0, skipped: 0 };
  const fail = (name: string, message: string, detail = message) => {
    suite.tests++;
    suite.failures++;
    suite.cases.push(`<testcase classname="run" name="${attr(name)}" time="0"><failure message="${attr(message)}">${text(detail)}</failure></testcase>`);
  };
  if (doc.stopped) fail(doc.stopped.headline, doc.because, `${doc.stopped.headline}\n${doc.because}`);
  else if (doc.verdict === 'inconclusive') fail(`run inconclusive: ${doc.because}`, doc.because);
  const left = leftOnTarget(doc);
  if (left.length > 0) {
    const names = left.map((e) => `${e.name ?? '(no name)'} ${e.id}`).join(', ');
    fail(`${left.length} key(s) left live on the target: ${names}`, `delete them with \`conformance cleanup\` (same settings and report folder)`);
  }
  return suite;
}

/** The exchange as a reader of a CI page needs it: request, status, the start of the body. */
function describe(e: Exchange): string {
  const lines = [`> ${e.request.method} ${e.request.url}`];
  for (const [name, value] of Object.entries(e.request.headers)) lines.push(`> ${name}: ${value}`);
  if (e.request.body !== undefined) lines.push('>', `> ${cut(e.request.body)}`);
  if (e.response) {
    lines.push(`< ${e.response.status}`);
    for (const [name, value] of Object.entries(e.response.headers)) lines.push(`< ${name}: ${value}`);
    if (e.response.body) lines.push('<', `< ${cut(e.response.body)}`);
  } else if (e.failure) {
    lines.push(`< no response: ${e.failure.message}`);
  }
  return lines.join('\n');
}

function cut(body: string): string {
  return body.length > BODY_SHOWN ? `${body.slice(0, BODY_SHOWN)}… (${body.length} characters; the rest in conformance.json)` : body;
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** XML 1.0 allows neither most control characters nor lone surrogates, even escaped: they become U+FFFD. */
function xmlSafe(value: string): string {
  return value.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

function text(value: string): string {
  return xmlSafe(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
