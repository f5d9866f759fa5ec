/**
 * A request's path from the API's own prefix on (`/api/v1/records`), whatever path the base URL
 * puts before it (a gateway's `/tenant-a`): what the profile's and the document's paths are
 * compared with.
 */
export function apiPathOf(url: string): string {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // A URL the run built itself is always absolute; keep it whole if not.
  }
  const api = path.indexOf('/api/');
  return api > 0 ? path.slice(api) : path;
}
