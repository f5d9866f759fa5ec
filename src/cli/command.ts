import type { Output } from '../output.js';
import type { RunParts } from '../run/parts.js';

/**
 * A CLI command: takes the arguments after its name, returns the exit status. `parts` are what a
 * run is handed by the composition root (`bin/parts.ts`); only the commands that run use them.
 */
export type Command = (args: readonly string[], io: Output, parts: RunParts) => Promise<number>;
