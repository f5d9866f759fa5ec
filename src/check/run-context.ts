import type { BrokerAddress } from '../broker/channel.js';
import type { ContextAddress } from './context-channel.js';
import type { KeyDeletion } from '../keys/deletion.js';
import type { Profile } from '../profile/profile.js';
import type { Preflight } from '../target/preflight.js';

/** Everything a worker needs to run checks; handed over once the run has it (`context-channel.ts`). */
export interface RunContext {
  readonly runId: string;
  readonly baseUrl: string;
  /** The target is the embedded reference server. */
  readonly embedded: boolean;
  readonly keys: { readonly main: string; readonly other: string | null };
  readonly extraHeaders: readonly (readonly [string, string])[];
  readonly profile: Profile;
  /**
   * The key prefix: the profile's, else inferred from the configured keys (`keys/prefix.ts`).
   * For the windows of "a part of a secret" and AUTH-2's token without the prefix; AUTH-5
   * judges only a declared one.
   */
  readonly keyPrefix: string | null;
  /** Keys of the main account the run created to spread its read-only work over (`keys/pool.ts`). */
  readonly keyPool: readonly string[];
  /** How the run deletes the keys it creates, or why it creates none (`keys/deletion.ts`). */
  readonly keyDeletion: KeyDeletion;
  readonly broker: BrokerAddress;
  readonly selection: { readonly only: readonly string[]; readonly skip: readonly string[] };
  readonly strict: boolean;
  readonly readOnly: boolean;
  /** The most submissions the run may create (`--max-submissions`); the broker keeps the count. */
  readonly maxSubmissions: number;
  /** Seed of every generated input (fast-check). */
  readonly seed: number;
  /** Generated cases per property. */
  readonly propertyRuns: number;
  /** Sequences the explorer draws beyond its cover (`--explore`). */
  readonly explore: number;
  readonly timeoutMs: number;
  /** The run's simulated clock, shared with the main thread (`src/clock.ts`); null on the real clock. */
  readonly clock: SharedArrayBuffer | null;
  readonly preflight: Preflight;
}

// The augmented module must be resolved where it is augmented, also when this file is compiled alone (prepack).
import type {} from 'vitest';

/**
 * What vitest is given as it starts, before the run has its context: the suites to load, and where
 * each worker asks for the context (`context-channel.ts`) once the preflight and the key pool are done.
 */
export interface SuitesStart {
  readonly selection: RunContext['selection'];
  readonly context: ContextAddress;
}

declare module 'vitest' {
  export interface ProvidedContext {
    conformance: SuitesStart;
  }
}
