import { Worker } from 'node:worker_threads';
import type { ReferenceOptions, RunningReference } from './server.js';

/** What a reference in a thread can be given: plain data, copied into the thread. */
export type ThreadOptions = Omit<ReferenceOptions, 'modify'>;

/** Messages between the run and its reference's thread. */
export type ToThread = 'close';
export type FromThread = { readonly started: Omit<RunningReference, 'close'> } | { readonly failed: string } | 'closed';

/** How long `close` waits for the server to close before the thread is ended outright. */
const CLOSE_GRACE_MS = 2000;

/**
 * The reference server on a thread of its own: the embedded run's target. On the run's thread it
 * shared the one core that also runs the run itself (the preflight, the key pool, the broker the
 * checks ask at every request): every request's server half waited behind the run's own work, and
 * the server's start (fastify, the generated data) came before anything else. On its own thread it
 * starts beside the run's, and answers on the second core while the run's thread waits for it.
 */
export function startReferenceThread(options: ThreadOptions = {}): Promise<RunningReference> {
  // Built, this module is JavaScript beside its entry; run from its sources, the thread registers
  // tsx's loader before it loads the entry's TypeScript, as bin/compiled.mjs does for the run (tsx
  // resolved from here: a thread started from code resolves a bare name from the working folder).
  const worker = import.meta.url.endsWith('.ts')
    ? new Worker(
        `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(new URL('./thread-entry.ts', import.meta.url).href)}); })`,
        { eval: true, workerData: options },
      )
    : new Worker(new URL('./thread-entry.js', import.meta.url), { workerData: options });
  // The thread never keeps the run alive: the run closes it, and a run that ends otherwise needs no server.
  worker.unref();
  return new Promise((resolve, reject) => {
    let running = false;
    worker.on('error', (error) => {
      if (!running) reject(error);
    });
    worker.on('exit', (code) => {
      if (!running) reject(new Error(`the reference server's thread exited (${code}) before it served`));
    });
    worker.on('message', (message: FromThread) => {
      if (message === 'closed' || running) return;
      if ('failed' in message) return reject(new Error(message.failed));
      running = true;
      resolve({ ...message.started, close: () => closeThread(worker) });
    });
  });
}

async function closeThread(worker: Worker): Promise<void> {
  const closed = new Promise<void>((resolve) => {
    worker.on('message', (message: FromThread) => message === 'closed' && resolve());
    worker.once('exit', () => resolve());
  });
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS).unref()));
  worker.postMessage('close' satisfies ToThread);
  await Promise.race([closed, grace]);
  clearTimeout(timer);
  await worker.terminate();
}
