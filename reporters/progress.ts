import type { Reporter, TestCase, TestSuite } from 'vitest/node';
import type { CheckStatus } from '../src/check/outcome.js';
import { familyOf, isClauseId, type Family } from '../src/clauses/catalogue.js';

const MARK: Record<CheckStatus, string> = { pass: '✓', fail: '✗', warn: '!', error: 'E', skipped: '-', not_applicable: '·' };
const ORDER = Object.keys(MARK) as CheckStatus[];

/** Erases the current terminal line (CR, then ANSI "erase in line"). */
const ERASE = '\r\x1b[2K';

/**
 * A line per suite (a clause family, mostly) as it finishes, a line per check that did not pass,
 * and, on a terminal, a live line counting the checks of the suites that are running (a remote run
 * paced at 100 requests a minute can spend minutes in one; the lanes run two at a time).
 */
export class ProgressReporter implements Reporter {
  readonly #live: ((text: string) => void) | null;
  /** The suites running, by name: the lanes of a phase run beside each other (src/check/suite-order.ts). */
  readonly #running = new Map<string, { counts: Partial<Record<CheckStatus, number>>; families: Set<Family> }>();
  #shown = false;

  /**
   * @param write one finished line at a time
   * @param live raw writes for the live line; @default process.stdout when it is a terminal, else none
   */
  constructor(
    readonly write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
    live: ((text: string) => void) | null = process.stdout.isTTY && !process.env.CI ? (text) => void process.stdout.write(text) : null,
  ) {
    this.#live = live;
  }

  /** Called when a block starts running: a suite's is named by its meta (src/check/lanes.ts). */
  onTestSuiteReady(suite: TestSuite): void {
    const name = suite.meta().conformanceSuite;
    if (!name) return;
    this.#running.set(name, { counts: {}, families: new Set() });
    this.#draw();
  }

  /** Called when a check has finished. */
  onTestCaseResult(test: TestCase): void {
    const record = test.meta().conformance;
    if (!record) return;
    const running = this.#running.get(test.meta().conformanceSuite ?? '');
    if (running) {
      running.counts[record.status] = (running.counts[record.status] ?? 0) + 1;
      if (isClauseId(record.clause)) running.families.add(familyOf(record.clause));
    }
    if (record.status !== 'pass' && record.status !== 'not_applicable')
      this.#line(`    ${MARK[record.status]} ${test.name}: ${record.reason ?? record.status}`);
    this.#draw();
  }

  /** Called when a block has finished: a suite's line. */
  onTestSuiteResult(suite: TestSuite): void {
    const name = suite.meta().conformanceSuite;
    if (!name) return;
    const counts: Partial<Record<CheckStatus, number>> = {};
    const families = new Set<Family>();
    for (const test of suite.children.allTests()) {
      const record = test.meta().conformance;
      if (!record) continue;
      counts[record.status] = (counts[record.status] ?? 0) + 1;
      if (isClauseId(record.clause)) families.add(familyOf(record.clause));
    }
    this.#running.delete(name);
    this.#line(`  ${label(name, families).padEnd(24)} ${describe(counts) || 'no checks'}`);
  }

  #line(text: string): void {
    if (this.#shown) this.#live?.(ERASE);
    this.#shown = false;
    this.write(text);
    this.#draw();
  }

  #draw(): void {
    if (!this.#live || this.#running.size === 0) return;
    const parts = [...this.#running].map(([name, { counts, families }]) => {
      const done = Object.values(counts).reduce((a, b) => a + b, 0);
      return `${label(name, families)} running: ${done} checks done${done ? ` (${describe(counts)})` : ''}`;
    });
    this.#live(`${ERASE}  ${parts.join(' · ')}`);
    this.#shown = true;
  }
}

/** `pagination (PAG)`: the suite and the clause families its checks named. */
function label(name: string, families: ReadonlySet<Family>): string {
  return families.size === 0 || families.size > 3 ? name : `${name} (${[...families].join(', ')})`;
}

function describe(counts: Partial<Record<CheckStatus, number>>): string {
  return ORDER.filter((s) => counts[s])
    .map((s) => `${counts[s]} ${s.replace('_', ' ')}`)
    .join(', ');
}
