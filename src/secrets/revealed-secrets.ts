import { Redactor } from './redactor.js';

/**
 * The secrets the target revealed during the run (the keys it created), looked for in every later
 * response (KEY-4). A response is scanned once for all of them, still in bytes; only one that holds
 * some is decoded and told which.
 */
export class RevealedSecrets {
  readonly #all = new Redactor();
  readonly #values: string[] = [];
  readonly #keyPrefix: string | null;

  constructor(keyPrefix: string | null) {
    this.#keyPrefix = keyPrefix;
  }

  /** Adds a revealed secret; false when it was known already. */
  add(value: string): boolean {
    if (this.#values.includes(value)) return false;
    this.#values.push(value);
    this.#all.add(value, this.#keyPrefix);
    return true;
  }

  /** The revealed secrets, in the order they were revealed. */
  values(): string[] {
    return [...this.#values];
  }

  /** Which revealed secrets (their indices in `values()`) a response holds, whole or in part. */
  leaksIn(body: Uint8Array, headerText: string): number[] {
    // The byte index first, for the headers too: most responses hold no secret at all.
    if (!this.#all.leaksIn(body) && !this.#all.leaksIn(Buffer.from(headerText))) return [];
    const text = Buffer.from(body).toString('utf8');
    return this.#values.flatMap((value, index) => {
      const one = new Redactor();
      one.add(value, this.#keyPrefix);
      return one.leaks(text) || one.leaks(headerText) ? [index] : [];
    });
  }
}
