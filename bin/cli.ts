// The CLI as bin/conformance.mjs runs it: the commands of src/cli/, handed the run's parts.
import { main } from '../src/cli/main.js';
import { RUN_PARTS } from './parts.js';

const code = await main(process.argv.slice(2), RUN_PARTS);
// Exit now, with the command's own status. A run stopped early (a signal, a target that stopped
// answering) has deleted its keys and written its report by now, but a check still in flight in
// vitest's worker (a wait of its own for a Retry-After) would hold the process for up to a window,
// and vitest may set an exit code of its own (1) after the run returned. Standard output and error
// are written synchronously to files, pipes and terminals on POSIX, so nothing is cut.
process.exit(code);
