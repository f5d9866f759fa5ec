import type { Ledger } from '../broker/ledger.js';
import { TransportFailure, type Credential, type HttpClient } from '../http/client.js';

/** What `init` sees of one response; bodies are parsed JSON or null. */
export interface Probed {
  readonly status: number;
  readonly headers: Headers;
  readonly json: unknown;
}

export interface ProbeTarget {
  /** The suite's one client (paced on the target's headers, deadlines, body cap). */
  readonly http: HttpClient;
  /** The configured key: a new key's start is compared with it (the prefix). */
  readonly key: string;
  /** Where the key init creates is recorded, so that `cleanup` deletes it if init cannot. */
  readonly ledger: Ledger;
  readonly runId: string;
}

/**
 * One request of `init`: the configured key by default, another key, or none (`key: null`). A
 * transport failure answers status 0: init reports what it could not learn, it judges nothing.
 */
export async function probe(
  target: ProbeTarget,
  method: string,
  path: string,
  options: { key?: string | null; query?: Record<string, string>; body?: unknown } = {},
): Promise<Probed> {
  const auth: Credential = options.key === undefined ? 'main' : options.key === null ? 'none' : { key: options.key, kind: 'candidate' };
  try {
    const res = await target.http.send({
      method,
      path,
      ...(options.query ? { query: options.query } : {}),
      ...(options.body !== undefined ? { body: options.body } : {}),
      auth,
    });
    return { status: res.status, headers: new Headers(res.headers), json: res.json ?? null };
  } catch (error) {
    if (error instanceof TransportFailure) return { status: 0, headers: new Headers(), json: null };
    throw error;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The items of a pagination envelope, or null when the body is not one. */
export function itemsOf(response: Probed): Record<string, unknown>[] | null {
  if (response.status !== 200 || !isObject(response.json) || !Array.isArray(response.json.items)) return null;
  return response.json.items.filter(isObject);
}

export function totalOf(response: Probed): number | null {
  return isObject(response.json) && typeof response.json.total_count === 'number' ? response.json.total_count : null;
}

/** The error object of an error envelope, when the body is one. */
export function errorOf(response: Probed): { type?: unknown; code?: unknown; param?: unknown; path?: unknown } | null {
  return isObject(response.json) && isObject(response.json.error) ? response.json.error : null;
}
