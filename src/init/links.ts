/**
 * The API's own links (HAL `_links`, `links`, `url` members, a `Location` header): where it names
 * its paths itself, `init` tries them before the usual places. Any string that is a path under
 * `/api/v1/`, or a URL whose path is, counts; the query it carries is kept (a link like
 * `/api/v1/submissions?workspaceId=…` names the list and its filter at once).
 */
export interface Link {
  readonly path: string;
  readonly query: URLSearchParams;
}

const API_PATH = /^\/api\/v1\/[^\s]*$/;

/** Every link found at any depth of `json`, once each. */
export function linksIn(...bodies: unknown[]): Link[] {
  const seen = new Map<string, Link>();
  const visit = (value: unknown, depth: number): void => {
    if (depth > 8) return;
    if (typeof value === 'string') {
      const link = asLink(value);
      if (link) seen.set(`${link.path}?${link.query}`, link);
    } else if (Array.isArray(value)) for (const item of value.slice(0, 20)) visit(item, depth + 1);
    else if (typeof value === 'object' && value !== null) for (const member of Object.values(value)) visit(member, depth + 1);
  };
  for (const body of bodies) visit(body, 0);
  return [...seen.values()];
}

function asLink(value: string): Link | null {
  let url: URL;
  try {
    url = new URL(value, 'http://base.invalid');
  } catch {
    return null;
  }
  if (!API_PATH.test(url.pathname) || !(value.startsWith('/') || /^https?:\/\//.test(value))) return null;
  return { path: url.pathname.replace(/\/+$/, ''), query: url.searchParams };
}

/** The link paths whose last segment names `stem` (`submission`, `taxonom`), without an id after it. */
export function listPathsNamed(links: readonly Link[], stem: string): string[] {
  return [...new Set(links.map((l) => l.path).filter((p) => p.split('/').at(-1)!.toLowerCase().includes(stem)))];
}

/** Query parameters of links to `path` whose value is one of `ids`: a list's filter, named by the API. */
export function filtersNamed(links: readonly Link[], path: string, ids: readonly string[]): string[] {
  return [...new Set(links.filter((l) => l.path === path).flatMap((l) => [...l.query].filter(([, value]) => ids.includes(value)).map(([name]) => name)))];
}
