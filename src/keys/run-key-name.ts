/**
 * The name the suite gives every key it creates: `conformance-<run id>-<purpose>`. A deployment
 * owner can tell the run's keys apart by it, and `cleanup` finds by it the keys a run left behind
 * without a ledger line, and their age: the run id starts with the run's UTC start to the second
 * (`src/run/run-id.ts`).
 */
export function runKeyName(runId: string, purpose: string): string {
  return `conformance-${runId}-${purpose}`;
}

/** What a name the suite gave a key tells: the run's id, and when the run started (ms since the epoch). */
export interface RunOfKey {
  readonly runId: string;
  readonly startedAt: number;
}

const RUN_KEY_NAME = /^conformance-((\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})-[0-9a-f]{6})-/;

/** The run a key's name says created it; null for a name the suite does not give. */
export function runOfKeyName(name: string): RunOfKey | null {
  const m = RUN_KEY_NAME.exec(name);
  return m ? { runId: m[1]!, startedAt: Date.UTC(+m[2]!, +m[3]! - 1, +m[4]!, +m[5]!, +m[6]!, +m[7]!) } : null;
}
