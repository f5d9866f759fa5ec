import type { HttpResponse } from '../http/client.js';
import { schemaErrors, type SchemaName } from '../schemas.js';
import { collections, type CollectionEndpoint, type CollectionName } from '../target/collections.js';
import type { CheckJudging } from './judging.js';

/** The pagination envelope (API document, Pagination envelope). */
export interface Envelope {
  items: unknown[];
  has_more: boolean;
  total_count: number;
}

/** `t.lists`: the collections of the target and what every list check does with them. */
export class CheckLists {
  constructor(readonly t: CheckJudging) {}

  /** The list and retrieval paths of a collection (the document's and the profile's). */
  endpoint(name: CollectionName): CollectionEndpoint {
    return collections(this.t.profile)[name];
  }

  /** GETs a list and insists on the pagination envelope (PAG-1's schema), else a finding. */
  async fetchPage(path: string, query: Record<string, string | number> = {}): Promise<{ res: HttpResponse; page: Envelope }> {
    const { t } = this;
    const res = await t.http.get(path, { query });
    t.ensure(res.status === 200, () => `expected 200 from the list, got ${res.status}`, res);
    const body = t.json(res);
    const problems = schemaErrors('envelope', body);
    t.ensure(problems.length === 0, () => `the list response is not the pagination envelope: ${problems.join('; ')}`, res);
    return { res, page: body as Envelope };
  }

  /** Validates every item against a resource schema, naming the first offender. */
  ensureItems(items: readonly unknown[], schema: SchemaName, what: string, res: HttpResponse): void {
    for (const [index, item] of items.entries()) {
      const problems = schemaErrors(schema, item);
      this.t.ensure(problems.length === 0, () => `${what} ${index} does not match the document: ${problems.join('; ')}`, res);
    }
  }

  /** How many single retrievals a check may spend per collection. */
  retrievalBudget(): number {
    return this.t.run.embedded ? 25 : 5;
  }
}

/** Up to `count` items spread evenly over a list, first and last included. */
export function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  const out: T[] = [];
  for (let i = 0; i < count; i++) out.push(items[Math.round((i * (items.length - 1)) / (count - 1))]!);
  return out;
}

/** Ids of items, by the collection's id member. */
export function idsOf(items: readonly unknown[], field = 'id'): string[] {
  return items.map((item) => (item as Record<string, unknown> | null)?.[field]).filter((id): id is string => typeof id === 'string');
}
