/** Mutants of the SUB family. */
export const SUBMISSION_MUTANTS = {} as const;
