/** Mutants of the ERR family. */
export const ERROR_MUTANTS = {} as const;
