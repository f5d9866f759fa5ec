import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SeedData } from './data.js';

export interface ApiKeyRecord {
  readonly id: string;
  readonly name: string;
  readonly accountId: string;
  /** sha256 of the whole key: the key itself is never kept (API document, Authentication 5). */
  readonly hash: Buffer;
  /** The last four characters, shown as a hint: too short to count as part of the secret. */
  readonly hint: string;
  readonly createdAt: string;
  lastUsedAt: string | null;
  /** Local time of deletion; a deleted key stays here only so that a faulty grace can be modelled. */
  revokedAtMs: number | null;
}

export interface Submission {
  id: string;
  workspace_id: string;
  taxonomy_id: string;
  row_count: number;
  created_at: string;
}

export interface Account {
  readonly id: string;
  readonly data: SeedData;
  readonly keys: Map<string, ApiKeyRecord>;
  readonly submissions: Submission[];
}

export class Store {
  readonly accounts: Account[] = [];
  readonly #byHash = new Map<string, ApiKeyRecord>();
  #sequence = 0;

  constructor(
    readonly keyPrefix: string,
    /** The server's clock, for the times it keeps. */
    readonly now: () => number = Date.now,
  ) {}

  addAccount(id: string, data: SeedData): Account {
    const account: Account = { id, data, keys: new Map(), submissions: [] };
    this.accounts.push(account);
    return account;
  }

  account(id: string): Account {
    const found = this.accounts.find((a) => a.id === id);
    if (!found) throw new Error(`no account ${id}`);
    return found;
  }

  /** Issues a key; the full key is returned once and only its hash is kept. */
  createKey(account: Account, name: string): { record: ApiKeyRecord; secret: string } {
    const secret = `${this.keyPrefix}${randomBytes(24).toString('base64url')}`;
    const hash = digest(secret);
    const record: ApiKeyRecord = {
      id: `key_${(++this.#sequence).toString(36).padStart(4, '0')}${randomBytes(4).toString('hex')}`,
      name,
      accountId: account.id,
      hash,
      hint: secret.slice(-4),
      createdAt: new Date(this.now()).toISOString(),
      lastUsedAt: null,
      revokedAtMs: null,
    };
    account.keys.set(record.id, record);
    this.#byHash.set(hash.toString('hex'), record);
    return { record, secret };
  }

  /** Finds the key a token belongs to, comparing hashes in constant time. */
  findKey(token: string): ApiKeyRecord | null {
    const hash = digest(token);
    const candidate = this.#byHash.get(hash.toString('hex'));
    if (!candidate || !timingSafeEqual(candidate.hash, hash)) return null;
    return candidate;
  }

  nextId(prefix: string): string {
    return `${prefix}_${(++this.#sequence).toString(36).padStart(6, '0')}`;
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
