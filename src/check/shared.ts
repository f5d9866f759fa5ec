/**
 * Values computed once and shared by the checks of one scope (a suite file, a worker): probes
 * several clauses judge, a walk, an exhausted key. A vitest fixture of that scope holds it.
 */
export class Shared {
  readonly #values = new Map<string, unknown>();

  once<T>(name: string, make: () => T): T {
    if (!this.#values.has(name)) this.#values.set(name, make());
    return this.#values.get(name) as T;
  }
}
