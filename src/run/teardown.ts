import type { Broker } from '../broker/broker.js';
import { HttpClient } from '../http/client.js';
import { declaredDeletion, type KeyDeletion } from '../keys/deletion.js';
import type { Output } from '../output.js';
import type { Profile } from '../profile/profile.js';
import { cleanupCreated, type CleanupResult } from './cleanup.js';
import type { Target } from './target.js';

export interface TeardownOptions {
  readonly target: Target;
  readonly broker: Broker;
  readonly extraHeaders: readonly (readonly [string, string])[];
  readonly timeoutMs: number;
  /** `--teardown-timeout`: the bound of a teardown after a signal, a dead target or an error. */
  readonly boundMs: number;
  /** `--leave-keys`: keys with no known key path are left, and said so. */
  readonly leaveKeys: boolean;
  readonly io: Output;
}

/**
 * The deletion of every key the run created, made ready as soon as the broker keeps a ledger and
 * run once, whatever ends the run: at its end without a deadline, after a signal, a dead target
 * or an error within its bound. It deletes the way the profile declares until the key deletion
 * probe finds one (`deleteWith`).
 */
export class Teardown {
  readonly boundMs: number;
  #deletion: KeyDeletion;
  #done: Promise<CleanupResult> | null = null;

  constructor(private readonly options: TeardownOptions) {
    this.boundMs = options.boundMs;
    const profile = options.target.loaded.profile;
    this.#deletion = declaredDeletion(profile, options.leaveKeys) ?? { path: null, idMember: null, source: null, noKeys: null, leaveKeys: options.leaveKeys };
  }

  /** How the run deletes the keys it creates, or why it creates none. */
  get deletion(): KeyDeletion {
    return this.#deletion;
  }

  /** The key path the run found by probing, which the cleanup command must be told; null where the profile declares it. */
  get foundKeyPath(): string | null {
    return this.#deletion.source === 'conventional' ? this.#deletion.path : null;
  }

  /** What the key deletion probe found (`keys/deletion.ts`): the keys created from then on are deleted so. */
  deleteWith(deletion: KeyDeletion): void {
    this.#deletion = deletion;
  }

  /** Deletes the run's keys the first time it is called, within `withinMs`; later calls get the same promise. */
  run(withinMs = Number.POSITIVE_INFINITY): Promise<CleanupResult> {
    return (this.#done ??= cleanupCreated(this.#client(withinMs), this.options.broker.ledger, this.#profile, this.#deletion, this.options.io, withinMs));
  }

  /** The teardown of a run that stopped early: within `--teardown-timeout`. */
  bounded(): Promise<CleanupResult> {
    return this.run(this.boundMs);
  }

  get #profile(): Profile {
    return this.options.target.loaded.profile;
  }

  #client(withinMs: number): HttpClient {
    const { target, broker } = this.options;
    return new HttpClient({
      baseUrl: target.baseUrl,
      keys: target.keys,
      extraHeaders: this.options.extraHeaders,
      timeoutMs: Math.min(this.options.timeoutMs, withinMs),
      // Unpaced: the pacer kept these requests back (Broker teardownBucket). Yet another client on
      // the key (two CI jobs) may spend that reserve: the teardown at the end of a run, which has
      // no deadline, waits out a 429 as any request does; the one after a signal or a dead target,
      // bounded, does not, nor sends again what went unanswered.
      hooks: { acquire: async () => undefined, record: async (e, body) => void broker.record(e, body) },
      retry429: !Number.isFinite(withinMs),
      retryUnanswered: !Number.isFinite(withinMs),
      currentCheck: () => 'cleanup',
    });
  }
}
