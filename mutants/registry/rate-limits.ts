/** Mutants of the RATE family. */
export const RATE_LIMIT_MUTANTS = {} as const;
