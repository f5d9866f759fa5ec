/** What `init` sees of one response; bodies are parsed JSON or null. */
export interface Probed {
  readonly status: number;
  readonly headers: Headers;
  readonly json: unknown;
}

export interface ProbeTarget {
  readonly baseUrl: string;
  readonly key: string;
  readonly timeoutMs: number;
  /** Extra headers for a gateway in front of the target. */
  readonly extraHeaders: readonly (readonly [string, string])[];
}

/**
 * One request of `init`. Plain fetch, no pacing: init sends a few dozen requests, well inside
 * the document's 100 a minute. A transport failure answers status 0.
 */
export async function probe(
  target: ProbeTarget,
  method: string,
  path: string,
  options: { key?: string | null; query?: Record<string, string>; body?: unknown } = {},
): Promise<Probed> {
  const url = new URL(path, `${target.baseUrl}/`);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
  const headers: Record<string, string> = Object.fromEntries(target.extraHeaders);
  const key = options.key === undefined ? target.key : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await fetch(url, {
      method,
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      signal: AbortSignal.timeout(target.timeoutMs),
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text === '' ? null : JSON.parse(text);
    } catch {
      json = null;
    }
    return { status: response.status, headers: response.headers, json };
  } catch {
    return { status: 0, headers: new Headers(), json: null };
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
