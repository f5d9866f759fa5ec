import { Agent, request } from 'undici';
import type { ClientHooks } from '../http/client.js';
import type { Exchange } from '../http/exchange.js';
import type { LedgerEntry } from './ledger.js';
import type { BrokerAddress } from './server.js';

/** A worker's handle on the broker in the main process. */
export class RemoteBroker implements ClientHooks {
  readonly #address: BrokerAddress;
  // Waits for a rate-limit window can last a minute: no timeouts on the loopback link.
  readonly #agent = new Agent({ headersTimeout: 0, bodyTimeout: 0, connections: 32 });

  constructor(address: BrokerAddress) {
    this.#address = address;
  }

  async acquire(bucket: string, anonymous: boolean): Promise<void> {
    await this.#call('POST', '/acquire', { bucket, anonymous });
  }

  /** Sets aside `count` requests of the bucket's budget, for requests sent with `pace: false`. */
  async reserve(bucket: string, anonymous: boolean, count: number): Promise<void> {
    await this.#call('POST', '/reserve', { bucket, anonymous, count });
  }

  /** Resolves once the bucket's window holds none of the run's requests. */
  async untilFresh(bucket: string, anonymous: boolean): Promise<void> {
    await this.#call('POST', '/fresh', { bucket, anonymous });
  }

  async record(exchange: Exchange, body: string): Promise<void> {
    const { seq } = (await this.#call('POST', '/record', { exchange, body })) as { seq: number };
    exchange.seq = seq;
  }

  async revealSecret(value: string): Promise<void> {
    await this.#call('POST', '/secret', { value });
  }

  async secrets(): Promise<string[]> {
    return ((await this.#call('GET', '/secrets')) as { secrets: string[] }).secrets;
  }

  async log(): Promise<Exchange[]> {
    return ((await this.#call('GET', '/log')) as { exchanges: Exchange[] }).exchanges;
  }

  async ledger(entry: LedgerEntry): Promise<void> {
    await this.#call('POST', '/ledger', entry);
  }

  async ledgerEntries(): Promise<LedgerEntry[]> {
    return ((await this.#call('GET', '/ledger')) as { entries: LedgerEntry[] }).entries;
  }

  async #call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const res = await request(`${this.#address.url}${path}`, {
      method,
      dispatcher: this.#agent,
      headers: { 'x-broker-token': this.#address.token, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`broker ${method} ${path}: ${res.statusCode} ${text}`);
    return JSON.parse(text);
  }
}
