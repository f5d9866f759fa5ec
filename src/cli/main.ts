import { HelpRequested, readSettings } from '../config/settings.js';
import { ConformanceError } from '../errors.js';
import { run } from '../run/run.js';

/** `conformance`: exit 0 conformant, 1 non-conformant, 2 inconclusive (profile.md). */
async function main(): Promise<number> {
  try {
    const settings = readSettings(process.argv.slice(2));
    return await run(settings);
  } catch (error) {
    if (error instanceof HelpRequested) {
      process.stdout.write(`${error.message}\n`);
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

process.exitCode = await main();
