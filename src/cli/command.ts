import type { Output } from '../output.js';

/** A CLI command: takes the arguments after its name, returns the exit status. */
export type Command = (args: readonly string[], io: Output) => Promise<number>;
