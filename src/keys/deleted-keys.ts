import { apiPathOf } from '../http/api-path.js';
import { endedAt, fromApi, type Exchange } from '../http/exchange.js';

/**
 * The keys a run's log shows deleted: each id whose DELETE at the key path (`keyPath`, with `{id}`)
 * the API answered 2xx, under any base path, with when the first such answer came (the run's clock).
 * KEY-6's run-wide judge reads when; the wait before the key list's walks reads which.
 */
export function deletedKeys(log: readonly Exchange[], keyPath: string): Map<string, number> {
  const deletedAt = new Map<string, number>();
  if (!keyPath.includes('{id}')) return deletedAt;
  const [before, after] = keyPath.split('{id}') as [string, string];
  for (const e of log) {
    const status = e.response?.status ?? 0;
    if (!fromApi(e) || e.request.method !== 'DELETE' || status < 200 || status >= 300) continue;
    const path = apiPathOf(e.request.url);
    if (!path.startsWith(before) || !path.endsWith(after) || path.length <= before.length + after.length) continue;
    const id = decodeURIComponent(path.slice(before.length, path.length - after.length));
    if (!id.includes('/')) deletedAt.set(id, Math.min(deletedAt.get(id) ?? Infinity, endedAt(e)));
  }
  return deletedAt;
}
