import type { SecretMatch, SecretShape } from './chance.js';
import { partStart, Redactor } from './redactor.js';

/**
 * The secrets the target revealed during the run (the keys it created), looked for in every later
 * response (KEY-4). A response is scanned once for all of them, still in bytes; only one that holds
 * some is decoded and told which, and how much of each (chance.ts weighs it).
 */
export class RevealedSecrets {
  readonly #all = new Redactor();
  readonly #values: string[] = [];
  readonly #keyPrefix: string | null;
  /** The configured secrets: never looked for, but what a revealed key shares with them is its prefix. */
  readonly #configured: string[] = [];

  constructor(keyPrefix: string | null) {
    this.#keyPrefix = keyPrefix;
  }

  /** A secret the run was given (a configured key): what a revealed key shares with it at its start is no part of a secret. */
  addConfigured(value: string): void {
    if (!this.#configured.includes(value)) this.#configured.push(value);
  }

  /** Adds a revealed secret; false when it was known already. */
  add(value: string): boolean {
    if (this.#values.includes(value)) return false;
    this.#values.push(value);
    this.#all.add(value, this.#prefixOf(value));
    return true;
  }

  /**
   * The secret's prefix: the declared one, or beyond it what the secret shares at its start with
   * any other the run knows (the Redactor's rule, here over the configured keys too).
   */
  #prefixOf(value: string): string | null {
    const start = partStart(
      value,
      this.#keyPrefix,
      [...this.#configured, ...this.#values].filter((other) => other !== value),
    );
    return start > 0 ? value.slice(0, start) : null;
  }

  /** The revealed secrets, in the order they were revealed. */
  values(): string[] {
    return [...this.#values];
  }

  /** Each revealed secret's shape, in the order they were revealed: what chance would make of its parts. */
  shapes(): SecretShape[] {
    return this.#all.shapes();
  }

  /** The revealed secrets a response holds, whole or in part, each with the longest run of it there. */
  leaksIn(body: Uint8Array, headerText: string): SecretMatch[] {
    // The byte index first, for the headers too: most responses hold no secret at all.
    if (!this.#all.leaksIn(body) && !this.#all.leaksIn(Buffer.from(headerText))) return [];
    const longest = new Map<number, number>();
    for (const text of [Buffer.from(body).toString('utf8'), headerText])
      for (const { secret, run } of this.#all.matchesIn(text)) longest.set(secret, Math.max(run, longest.get(secret) ?? 0));
    return [...longest].map(([secret, run]) => ({ secret, run }));
  }
}
