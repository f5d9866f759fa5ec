import { parentPort, workerData } from 'node:worker_threads';
import { startReference } from './server.js';
import type { FromThread, ThreadOptions, ToThread } from './thread.js';

// The reference server's thread (`thread.ts`): starts the server, says where it serves, and closes
// it when told.
const port = parentPort!;
const send = (message: FromThread) => port.postMessage(message);
try {
  const server = await startReference(workerData as ThreadOptions);
  send({ started: { url: server.url, keys: server.keys, profile: server.profile } });
  port.on('message', (message: ToThread) => {
    if (message === 'close') void server.close().finally(() => send('closed'));
  });
} catch (error) {
  send({ failed: error instanceof Error ? error.message : String(error) });
}
