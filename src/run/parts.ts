import type { Reporter } from 'vitest/node';
import type { Clock } from '../clock.js';
import type { CheckRecord } from '../check/outcome.js';
import type { ClauseId } from '../clauses/catalogue.js';
import type { Profile } from '../profile/profile.js';

/**
 * What the run is handed by whoever starts it, the composition root (`bin/parts.ts`): the parts
 * that live outside src/ (the vitest reporters, the embedded reference), as factories, so that
 * src/ never imports the folders it serves.
 */
export interface RunParts {
  /** Starts the embedded reference server, for a run without a base URL; loaded only then. */
  readonly startEmbeddedTarget: (options: { readonly profile: Profile; readonly windowSeconds: number }) => Promise<EmbeddedServer>;
  /** A new collector of the run's check records (`reporters/conformance.ts`). */
  readonly collector: () => RecordCollector;
  /** The progress lines as the checks finish, written to `out`. */
  readonly progress: (out: (line: string) => void) => Reporter;
  /** A GitHub Actions annotation for each failing check, written to `out`; used on Actions only. */
  readonly githubAnnotations: (out: (line: string) => void) => Reporter;
  /** The run's clock: the real one, or the simulated one of the project's own tests (`src/clock.ts`). */
  readonly clock: Clock;
}

/** The embedded reference server, as the run uses it. */
export interface EmbeddedServer {
  readonly url: string;
  readonly keys: { readonly main: string; readonly other: string };
  /** The profile the server honours, window included. */
  readonly profile: Profile;
  close(): Promise<void>;
}

/**
 * Collects every check's record as vitest reports it, so that a run stopped half-way still has
 * the records of what finished. It does not judge: the run turns the records into the verdict.
 */
export interface RecordCollector extends Reporter {
  readonly records: readonly CheckRecord[];
  /** Faults of the suite itself: tests outside `check()`, crashes, unhandled errors. */
  readonly suiteFaults: readonly string[];
  /** Checks each clause has in the suites collected so far: a stopped run tells a clause judged in part. */
  readonly planned: ReadonlyMap<ClauseId, number>;
}
