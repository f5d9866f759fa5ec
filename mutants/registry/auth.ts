/** Mutants of the AUTH family. */
export const AUTH_MUTANTS = {} as const;
