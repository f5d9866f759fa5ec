import { randomBytes } from 'node:crypto';
import { BroadcastChannel } from 'node:worker_threads';
import type { Exchange } from '../http/exchange.js';
import type { SecretShape } from '../secrets/chance.js';
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

/**
 * What workers may ask of the broker: one contract for both sides of the channel, each operation
 * named as the Broker method that serves it.
 */
export interface BrokerContract {
  acquire(bucket: string, anonymous: boolean): Promise<void>;
  acquireAny(buckets: readonly string[]): Promise<number>;
  reserve(bucket: string, anonymous: boolean, count: number): Promise<void>;
  /** Gives back requests `reserve` set aside that were never sent. */
  release(bucket: string, anonymous: boolean, count: number): void;
  untilFresh(bucket: string, anonymous: boolean): Promise<void>;
  /** Adds an exchange to the log; resolves to its place in it. */
  record(exchange: Exchange, body: Uint8Array): number;
  addRevealedSecret(value: string): void;
  addCandidateSecret(value: string): void;
  secrets(): string[];
  revealedShapes(): SecretShape[];
  /** The log from place `from` on: a worker asks only for what it has not had yet. */
  log(from: number): readonly Exchange[];
  addLedgerEntry(entry: LedgerEntry): void;
  /** Resolves once the key that deletes the run's keys can still delete every live one (see `Broker.untilDeletable`). */
  untilDeletable(): Promise<void>;
  /** Takes a place under the run's cap on created submissions; false when none is left. */
  claimSubmission(cap: number): boolean;
  /** Settles a claim by the answer: `created` when the target may have created the submission. */
  settleSubmission(answered: boolean): void;
  submissionRoom(cap: number): number;
}

export type BrokerOp = keyof BrokerContract;

/** What an operation resolves to on the worker's side of the channel. */
export type BrokerResult<Op extends BrokerOp> = Awaited<ReturnType<BrokerContract[Op]>>;

/** A call to the broker, as posted on the channel; `id` is unique across all callers. */
export interface BrokerCall<Op extends BrokerOp = BrokerOp> {
  readonly id: string;
  readonly op: Op;
  readonly args: Parameters<BrokerContract[Op]>;
}

/** The broker's answer to one call: a result, or the error's message. */
export type BrokerReply = { readonly id: string; readonly reply: true; readonly result?: unknown; readonly error?: string };

/** The operations the broker serves, as functions of their arguments. */
function operations(broker: Broker): { readonly [Op in BrokerOp]: (...args: Parameters<BrokerContract[Op]>) => ReturnType<BrokerContract[Op]> } {
  return {
    acquire: (bucket, anonymous) => broker.acquire(bucket, anonymous),
    acquireAny: (buckets) => broker.acquireAny(buckets),
    reserve: (bucket, anonymous, count) => broker.reserve(bucket, anonymous, count),
    release: (bucket, anonymous, count) => broker.release(bucket, anonymous, count),
    untilFresh: (bucket, anonymous) => broker.untilFresh(bucket, anonymous),
    record: (exchange, body) => broker.record(exchange, body),
    addRevealedSecret: (value) => broker.addRevealedSecret(value),
    addCandidateSecret: (value) => broker.addCandidateSecret(value),
    secrets: () => broker.secrets(),
    revealedShapes: () => broker.revealedShapes(),
    log: (from) => broker.log().slice(from),
    addLedgerEntry: (entry) => broker.addLedgerEntry(entry),
    untilDeletable: () => broker.untilDeletable(),
    claimSubmission: (cap) => broker.claimSubmission(cap),
    settleSubmission: (answered) => broker.settleSubmission(answered),
    submissionRoom: (cap) => broker.submissionRoom(cap),
  };
}

function isOperation(ops: object, op: unknown): op is BrokerOp {
  return typeof op === 'string' && Object.hasOwn(ops, op);
}

/** Serves the broker to the run's worker threads. */
export async function serveBroker(broker: Broker): Promise<RunningBroker> {
  const name = `conformance-broker-${randomBytes(16).toString('hex')}`;
  const channel = new BroadcastChannel(name);
  const ops = operations(broker);
  let closed = false;
  channel.onmessage = async (event: unknown) => {
    const call = (event as { data: BrokerCall | BrokerReply }).data;
    // Replies (ours, echoed to every other member) and anything malformed are not calls.
    if ('reply' in call || typeof call.id !== 'string') return;
    let reply: BrokerReply;
    try {
      if (!isOperation(ops, call.op) || !Array.isArray(call.args)) throw new Error(`unknown broker operation "${String(call.op)}"`);
      const handler = ops[call.op] as (...args: readonly unknown[]) => unknown;
      reply = { id: call.id, reply: true, result: await handler(...call.args) };
    } catch (error) {
      reply = { id: call.id, reply: true, error: error instanceof Error ? error.message : String(error) };
    }
    // A call still in flight when the run closed the channel (a check cut by a signal, its wait
    // ended by the stopped pacer) has no one left to answer: posting would throw and kill the run.
    if (!closed) channel.postMessage(reply);
  };
  return {
    address: { channel: name },
    close: async () => {
      closed = true;
      channel.close();
    },
  };
}
