import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { basename } from 'node:path';
import type { CheckStatus } from '../src/check/outcome.js';
import { familyOf, isClauseId, type Family } from '../src/clauses/catalogue.js';

const MARK: Record<CheckStatus, string> = { pass: '✓', fail: '✗', warn: '!', error: 'E', skipped: '-', not_applicable: '·' };
const ORDER = Object.keys(MARK) as CheckStatus[];

/** Erases the current terminal line (CR, then ANSI "erase in line"). */
const ERASE = '\r\x1b[2K';

/**
 * A line per clause family as it finishes, a line per check that did not pass, and, on a
 * terminal, a live line counting the checks of the family that is running (a remote run paced
 * at 100 requests a minute can spend minutes in one family).
 */
export class ProgressReporter implements Reporter {
  readonly #live: ((text: string) => void) | null;
  #current: { name: string; counts: Partial<Record<CheckStatus, number>>; families: Set<Family> } | null = null;
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

  /** Called when a suite file starts running. */
  onTestModuleStart(module: TestModule): void {
    this.#current = { name: suiteName(module), counts: {}, families: new Set() };
    this.#draw();
  }

  /** Called when a check has finished. */
  onTestCaseResult(test: TestCase): void {
    const record = test.meta().conformance;
    if (!record) return;
    if (this.#current) {
      this.#current.counts[record.status] = (this.#current.counts[record.status] ?? 0) + 1;
      if (isClauseId(record.clause)) this.#current.families.add(familyOf(record.clause));
    }
    if (record.status !== 'pass' && record.status !== 'not_applicable')
      this.#line(`    ${MARK[record.status]} ${test.name}: ${record.reason ?? record.status}`);
    this.#draw();
  }

  /** Called when a suite file has finished. */
  onTestModuleEnd(module: TestModule): void {
    const counts: Partial<Record<CheckStatus, number>> = {};
    const families = new Set<Family>();
    for (const test of module.children.allTests()) {
      const record = test.meta().conformance;
      if (!record) continue;
      counts[record.status] = (counts[record.status] ?? 0) + 1;
      if (isClauseId(record.clause)) families.add(familyOf(record.clause));
    }
    this.#current = null;
    this.#line(`  ${label(suiteName(module), families).padEnd(24)} ${describe(counts) || 'no checks'}`);
  }

  #line(text: string): void {
    if (this.#shown) this.#live?.(ERASE);
    this.#shown = false;
    this.write(text);
    this.#draw();
  }

  #draw(): void {
    if (!this.#live || !this.#current) return;
    const { name, counts, families } = this.#current;
    const done = Object.values(counts).reduce((a, b) => a + b, 0);
    this.#live(`${ERASE}  ${label(name, families).padEnd(24)} running: ${done} checks done${done ? ` (${describe(counts)})` : ''}`);
    this.#shown = true;
  }
}

function suiteName(module: TestModule): string {
  return basename(module.moduleId).replace(/\.suite\.ts$/, '');
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
