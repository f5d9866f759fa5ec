import { parentPort, workerData } from 'node:worker_threads';
import { simulatedClock } from '../../src/clock.js';

// A wait on the simulated clock in a thread of its own, as the pacer's on the run's main thread
// beside the checks' worker: `workerData` is the clock's shared state. Says 'waiting' as it begins
// the wait of a whole window, and 'done' once it has passed.

const clock = simulatedClock(workerData as SharedArrayBuffer);
parentPort!.postMessage('waiting');
await clock.sleep(60_000);
parentPort!.postMessage('done');
