import { randomBytes } from 'node:crypto';
import { BroadcastChannel } from 'node:worker_threads';

/** Where a worker asks for the run's context: a channel's name. */
export interface ContextAddress {
  readonly channel: string;
}

// The context's type is the caller's (`RunContext`): the channel only carries it, and a channel that
// named it would import the run's context, which names the channel's address, in a circle.
type Message<Context> =
  { readonly ask: string } | { readonly answer: string; readonly context: Context } | { readonly answer: string; readonly refused: string };

/**
 * The run's context, handed to the workers once the run has it. vitest starts (its worker, the
 * suites' modules) while the run's preflight and key pool are still under way; vitest's `provide`
 * is fixed when it starts, so the context comes over this channel instead: each worker asks, and
 * is answered as soon as the run `provide`s it (at once, if it already has). A run that stops
 * before its checks `refuse`s it: the checks waiting for it end at once, and vitest with them.
 */
export function serveContext<Context>(): { readonly address: ContextAddress; provide(context: Context): void; refuse(why: string): void; close(): void } {
  const channel = new BroadcastChannel(`conformance-context-${randomBytes(16).toString('hex')}`);
  const asked = new Set<string>();
  let context: Context | null = null;
  let refused: string | null = null;
  let closed = false;
  const answer = (id: string) => {
    if (closed) return;
    if (context !== null) channel.postMessage({ answer: id, context } satisfies Message<Context>);
    else if (refused !== null) channel.postMessage({ answer: id, refused } satisfies Message<Context>);
  };
  channel.onmessage = (event: unknown) => {
    const message = (event as { data: Message<Context> }).data;
    if (!('ask' in message) || typeof message.ask !== 'string') return;
    asked.add(message.ask);
    answer(message.ask);
  };
  // Asks still unanswered keep their promise, not the process, alive.
  channel.unref();
  return {
    address: { channel: channel.name },
    provide: (given) => {
      context = given;
      for (const id of asked) answer(id);
    },
    refuse: (why) => {
      if (context !== null) return;
      refused = why;
      for (const id of asked) answer(id);
    },
    close: () => {
      closed = true;
      channel.close();
    },
  };
}

/** The run's context, once the run has provided it (`serveContext`). */
export function receiveContext<Context>(address: ContextAddress): Promise<Context> {
  const channel = new BroadcastChannel(address.channel);
  const id = randomBytes(8).toString('hex');
  return new Promise<Context>((resolve, reject) => {
    channel.onmessage = (event: unknown) => {
      const message = (event as { data: Message<Context> }).data;
      if (!('answer' in message) || message.answer !== id) return;
      channel.close();
      if ('context' in message) resolve(message.context);
      else reject(new Error(message.refused));
    };
    channel.postMessage({ ask: id } satisfies Message<Context>);
  });
}
