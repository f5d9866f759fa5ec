import { randomBytes } from 'node:crypto';
import { BroadcastChannel } from 'node:worker_threads';
import type { ClientHooks } from '../http/client.js';
import type { Exchange } from '../http/exchange.js';
import type { SecretShape } from '../secrets/chance.js';
import type { BrokerAddress, BrokerCall, BrokerContract, BrokerOp, BrokerReply, BrokerResult } from './channel.js';
import type { LedgerEntry } from './ledger.js';

/** A worker's handle on the broker in the main thread. */
export class RemoteBroker implements ClientHooks {
  readonly #channel: BroadcastChannel;
  /** Calls of this handle carry this prefix: other workers' replies on the channel are not ours. */
  readonly #prefix = randomBytes(6).toString('hex');
  readonly #pending = new Map<string, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  #next = 0;
  /** The broker's log as far as this handle fetched it. */
  readonly #log: Exchange[] = [];
  #fetched: Promise<void> = Promise.resolve();

  constructor(address: BrokerAddress) {
    this.#channel = new BroadcastChannel(address.channel);
    this.#channel.onmessage = (event: unknown) => {
      const reply = (event as { data: BrokerCall | BrokerReply }).data;
      if (!('reply' in reply)) return;
      const pending = this.#pending.get(reply.id);
      if (!pending) return;
      this.#pending.delete(reply.id);
      if (reply.error !== undefined) pending.reject(new Error(`broker: ${reply.error}`));
      else pending.resolve(reply.result);
    };
    // A waiting call keeps its promise, not the thread, alive: the runner decides when to end.
    this.#channel.unref();
  }

  async acquire(bucket: string, anonymous: boolean): Promise<void> {
    await this.#call('acquire', bucket, anonymous);
  }

  acquireAny(buckets: readonly string[]): Promise<number> {
    return this.#call('acquireAny', buckets);
  }

  /** Sets aside `count` requests of the bucket's budget, for requests sent with `pace: false`. */
  async reserve(bucket: string, anonymous: boolean, count: number): Promise<void> {
    await this.#call('reserve', bucket, anonymous, count);
  }

  /** Gives back requests `reserve` set aside that were never sent. */
  async release(bucket: string, anonymous: boolean, count: number): Promise<void> {
    await this.#call('release', bucket, anonymous, count);
  }

  /** Resolves once the bucket's window holds none of the run's requests. */
  async untilFresh(bucket: string, anonymous: boolean): Promise<void> {
    await this.#call('untilFresh', bucket, anonymous);
  }

  async record(exchange: Exchange, body: Uint8Array): Promise<void> {
    // A view on a larger buffer (a pooled slab, a socket read) would send the whole buffer across.
    // Uint8Array's slice copies; a Buffer's own slice is another view.
    const own = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : Uint8Array.prototype.slice.call(body);
    exchange.seq = await this.#call('record', exchange, own);
  }

  /** A key the target revealed: redacted, and looked for in every later response (KEY-4). */
  async addRevealedSecret(value: string): Promise<void> {
    await this.#call('addRevealedSecret', value);
  }

  /** A value that may be a new key but was not seen to authenticate: redacted where it appears whole. */
  async addCandidateSecret(value: string): Promise<void> {
    await this.#call('addCandidateSecret', value);
  }

  async secrets(): Promise<string[]> {
    return this.#call('secrets');
  }

  /** Each revealed secret's shape, in the order `Exchange.leaks` names them. */
  async revealedShapes(): Promise<SecretShape[]> {
    return this.#call('revealedShapes');
  }

  /**
   * The run's log so far. The broker's log only grows and its entries stay as they were recorded,
   * so each call fetches only what was added since the last: the checks at the end of a run read
   * it several times, and cloning some 2,000 exchanges across threads was 15 to 25 ms each time.
   */
  async log(): Promise<readonly Exchange[]> {
    // One fetch after another: two at once would both ask from the same place and add it twice.
    const fetched = this.#fetched
      .then(() => this.#call('log', this.#log.length))
      .then((added) => {
        for (const exchange of added) this.#log.push(exchange);
      });
    this.#fetched = fetched.catch(() => undefined);
    await fetched;
    return [...this.#log];
  }

  async addLedgerEntry(entry: LedgerEntry): Promise<void> {
    await this.#call('addLedgerEntry', entry);
  }

  /** Resolves once the key that deletes the run's keys can still delete every live one. */
  async untilDeletable(): Promise<void> {
    await this.#call('untilDeletable');
  }

  /** Takes a place under the run's cap on created submissions (`--max-submissions`). */
  claimSubmission(cap: number): Promise<boolean> {
    return this.#call('claimSubmission', cap);
  }

  async settleSubmission(answered: boolean): Promise<void> {
    await this.#call('settleSubmission', answered);
  }

  submissionRoom(cap: number): Promise<number> {
    return this.#call('submissionRoom', cap);
  }

  #call<Op extends BrokerOp>(op: Op, ...args: Parameters<BrokerContract[Op]>): Promise<BrokerResult<Op>> {
    const id = `${this.#prefix}-${this.#next++}`;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve: (value) => resolve(value as BrokerResult<Op>), reject });
      this.#channel.postMessage({ id, op, args } satisfies BrokerCall<Op>);
    });
  }
}
