/** Mutants of the KEY family. */
export const KEY_MUTANTS = {} as const;
