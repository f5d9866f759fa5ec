import { usage } from '../config/help.js';
import { HelpRequested } from '../config/settings.js';
import { ConformanceError } from '../errors.js';
import { consoleOutput } from '../output.js';
import type { RunParts } from '../run/parts.js';
import type { Command } from './command.js';

/** A command loaded when it is called: `verify` and `diff` need not load vitest and the reference. */
function lazy(load: () => Promise<Command>): Command {
  return async (args, io, parts) => (await load())(args, io, parts);
}

/** Every command by name; `run` is the default when the first argument is a flag or absent. */
export const COMMANDS = {
  run: lazy(async () => (await import('./commands/run.js')).runCommand),
  cleanup: lazy(async () => (await import('./commands/cleanup.js')).cleanupCommand),
  diff: lazy(async () => (await import('./commands/diff.js')).diffCommand),
  rerun: lazy(async () => (await import('./commands/rerun.js')).rerunCommand),
  init: lazy(async () => (await import('./commands/init.js')).initCommand),
  verify: lazy(async () => (await import('./commands/verify.js')).verifyCommand),
  fleet: lazy(async () => (await import('./commands/fleet.js')).fleetCommand),
  ci: lazy(async () => (await import('./commands/ci.js')).ciCommand),
} as const satisfies Record<string, Command>;

/**
 * `conformance`: exit 0 conformant, 1 non-conformant, 2 inconclusive (the run interface). Called
 * by the composition root (`bin/cli.ts`), which hands over the run's parts.
 */
export async function main(argv: readonly string[], parts: RunParts): Promise<number> {
  try {
    const [first, ...rest] = argv;
    if (first === '--suite-digest' && rest.length === 0) {
      // What an owner compares with a report's suite digest (README, "Verifying a report").
      const { suiteIdentity } = await import('../integrity/suite-identity.js');
      const suite = suiteIdentity();
      process.stdout.write(
        `${suite.digest} api-v1-conformance ${suite.version}${suite.dirty ? ` (working tree differs from ${suite.commit}: ${suite.dirty.join(', ')})` : ''}\n`,
      );
      return 0;
    }
    if (first === undefined || first.startsWith('-')) return await COMMANDS.run(argv, consoleOutput, parts);
    if (!Object.hasOwn(COMMANDS, first)) {
      throw new ConformanceError('CONF_SETTING_INVALID', `unknown command "${first}" (commands: ${Object.keys(COMMANDS).join(', ')})`);
    }
    return await COMMANDS[first as keyof typeof COMMANDS](rest, consoleOutput, parts);
  } catch (error) {
    if (error instanceof HelpRequested) {
      process.stdout.write(`${usage()}\n`);
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
