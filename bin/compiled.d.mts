/** Imports a source of the package (`src/cli/main.ts`), compiled ahead of time when it can be, through tsx when not. */
export function importSource(entry: string): Promise<unknown>;
/** The URL of `entry` compiled under `root` (the package by default), or null where the sources cannot be compiled. */
export function compiledUrl(entry: string, root?: string): Promise<string | null>;
