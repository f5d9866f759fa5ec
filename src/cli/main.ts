import { HelpRequested, USAGE } from '../config/settings.js';
import { ConformanceError } from '../errors.js';
import { consoleOutput } from '../run/output.js';
import type { Command } from './command.js';
import { cleanupCommand } from './commands/cleanup.js';
import { diffCommand } from './commands/diff.js';
import { initCommand } from './commands/init.js';
import { rerunCommand } from './commands/rerun.js';
import { runCommand } from './commands/run.js';

/** Every command by name; `run` is the default when the first argument is a flag or absent. */
export const COMMANDS = {
  run: runCommand,
  cleanup: cleanupCommand,
  diff: diffCommand,
  rerun: rerunCommand,
  init: initCommand,
} as const satisfies Record<string, Command>;

/** `conformance`: exit 0 conformant, 1 non-conformant, 2 inconclusive (the run interface). */
async function main(argv: readonly string[]): Promise<number> {
  try {
    const [first, ...rest] = argv;
    if (first === undefined || first.startsWith('-')) return await COMMANDS.run(argv, consoleOutput);
    if (!Object.hasOwn(COMMANDS, first)) {
      throw new ConformanceError('CONF_SETTING_INVALID', `unknown command "${first}" (commands: ${Object.keys(COMMANDS).join(', ')})`);
    }
    return await COMMANDS[first as keyof typeof COMMANDS](rest, consoleOutput);
  } catch (error) {
    if (error instanceof HelpRequested) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (error instanceof ConformanceError) {
      process.stderr.write(`${error.toLine()}\n`);
      return 2;
    }
    process.stderr.write(`CONF_SUITE_FAULT: ${(error as Error)?.message ?? String(error)}\n`);
    return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
