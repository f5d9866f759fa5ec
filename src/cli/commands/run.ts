import { readSettings } from '../../config/settings.js';
import { run } from '../../run/run.js';
import type { Command } from '../command.js';

/** `conformance [run]`: the whole suite against the target. */
export const runCommand: Command = (args, io) => run(readSettings(args), io);
