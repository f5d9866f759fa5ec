/** Mutants of the PAG family. */
export const PAGINATION_MUTANTS = {} as const;
