/** Imports a source of the package (`src/cli/main.ts`), built ahead of time when it can be, through tsx when not. */
export function importSource(entry: string): Promise<unknown>;
/** The URL of `entry` built under `root` (the package by default), or null where the sources cannot be built. */
export function compiledUrl(entry: string, root?: string): Promise<string | null>;
/** Builds `dist/js/` under `root` unless it was built from the sources as they are; throws where it cannot. */
export function build(root?: string): Promise<void>;
