import type { CheckContext } from '../../src/check/context.js';
import type { HttpResponse } from '../../src/http/client.js';
import { fillPath } from '../../src/profile/profile.js';
import { schemaErrors, type SchemaName } from '../../src/schemas.js';
import { collections, type CollectionEndpoint, type CollectionName } from '../../src/target/collections.js';

export interface Envelope {
  items: unknown[];
  has_more: boolean;
  total_count: number;
}

export function endpoint(t: CheckContext, name: CollectionName): CollectionEndpoint {
  return collections(t.profile)[name];
}

/** GETs a list and insists on the pagination envelope (PAG-1's schema), else a finding. */
export async function fetchPage(t: CheckContext, path: string, query: Record<string, string | number> = {}): Promise<{ res: HttpResponse; page: Envelope }> {
  const res = await t.http.get(path, { query });
  t.ensure(res.status === 200, () => `expected 200 from the list, got ${res.status}`, res);
  const body = t.json(res);
  const problems = schemaErrors('envelope', body);
  t.ensure(problems.length === 0, () => `the list response is not the pagination envelope: ${problems.join('; ')}`, res);
  return { res, page: body as Envelope };
}

/** Validates every item against a resource schema, naming the first offender. */
export function ensureItems(t: CheckContext, items: readonly unknown[], schema: SchemaName, what: string, res: HttpResponse): void {
  for (const [index, item] of items.entries()) {
    const problems = schemaErrors(schema, item);
    t.ensure(problems.length === 0, () => `${what} ${index} does not match the document: ${problems.join('; ')}`, res);
  }
}

/** Up to `count` items spread evenly over a list, first and last included. */
export function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  const out: T[] = [];
  for (let i = 0; i < count; i++) out.push(items[Math.round((i * (items.length - 1)) / (count - 1))]!);
  return out;
}

/** How many single retrievals a check may spend per collection. */
export function retrievalBudget(t: CheckContext): number {
  return t.run.embedded ? 25 : 5;
}

export function itemPath(template: string, id: string): string {
  return fillPath(template, id);
}

/** Ids of items, by the collection's id member. */
export function idsOf(items: readonly unknown[], field = 'id'): string[] {
  return items.map((item) => (item as Record<string, unknown> | null)?.[field]).filter((id): id is string => typeof id === 'string');
}
