// The CLI as bin/conformance.mjs runs it: the commands of src/cli/, handed the run's parts.
import { main } from '../src/cli/main.js';
import { RUN_PARTS } from './parts.js';

process.exitCode = await main(process.argv.slice(2), RUN_PARTS);
