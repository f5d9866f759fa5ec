import { randomBytes } from 'node:crypto';
import { BroadcastChannel } from 'node:worker_threads';
import type { Exchange } from '../http/exchange.js';
import type { Broker } from './broker.js';
import type { LedgerEntry } from './ledger.js';

/**
 * Where workers find the broker: the name of a BroadcastChannel only this run knows. Vitest's
 * workers are threads of this process, and a channel reaches every thread of it (and nothing
 * outside it): no socket, no HTTP parsing, no token, for the two calls every request makes.
 */
export interface BrokerAddress {
  readonly channel: string;
}

export interface RunningBroker {
  readonly address: BrokerAddress;
  close(): Promise<void>;
}

/** A call to the broker, as posted on the channel; `id` is unique across all callers. */
export interface BrokerCall {
  readonly id: string;
  readonly op: BrokerOp;
  readonly args: any;
}

/** The broker's answer to one call: a result, or the error's message. */
export type BrokerReply = { readonly id: string; readonly reply: true; readonly result?: unknown; readonly error?: string };

type Handler = (args: any) => Promise<unknown> | unknown;

function operations(broker: Broker) {
  return {
    acquire: ({ bucket, anonymous }: { bucket: string; anonymous: boolean }) => broker.acquire(bucket, anonymous),
    reserve: ({ bucket, anonymous, count }: { bucket: string; anonymous: boolean; count: number }) => broker.reserve(bucket, anonymous, count),
    fresh: ({ bucket, anonymous }: { bucket: string; anonymous: boolean }) => broker.untilFresh(bucket, anonymous),
    record: ({ exchange, body }: { exchange: Exchange; body: string }) => broker.record(exchange, body),
    secret: ({ value }: { value: string }) => broker.addRevealedSecret(value),
    candidate: ({ value }: { value: string }) => broker.addCandidateSecret(value),
    secrets: () => broker.secrets(),
    log: () => broker.log(),
    ledger: (entry: LedgerEntry) => broker.addLedgerEntry(entry),
  } satisfies Record<string, Handler>;
}

export type BrokerOp = keyof ReturnType<typeof operations>;

/** Serves the broker to the run's worker threads. */
export async function serveBroker(broker: Broker): Promise<RunningBroker> {
  const name = `conformance-broker-${randomBytes(16).toString('hex')}`;
  const channel = new BroadcastChannel(name);
  const ops: Record<string, Handler> = operations(broker);
  channel.onmessage = async (event: unknown) => {
    const call = (event as { data: BrokerCall | BrokerReply }).data;
    // Replies (ours, echoed to every other member) and anything malformed are not calls.
    if ('reply' in call || typeof call.id !== 'string') return;
    const handler = ops[call.op];
    let reply: BrokerReply;
    try {
      if (!handler) throw new Error(`unknown broker operation "${String(call.op)}"`);
      reply = { id: call.id, reply: true, result: await handler(call.args) };
    } catch (error) {
      reply = { id: call.id, reply: true, error: error instanceof Error ? error.message : String(error) };
    }
    channel.postMessage(reply);
  };
  return {
    address: { channel: name },
    close: async () => channel.close(),
  };
}
