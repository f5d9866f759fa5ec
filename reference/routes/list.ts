import type { FastifyReply, FastifyRequest } from 'fastify';
import { invalidParam } from '../errors.js';
import type { ReferenceState } from '../state.js';

/** A collection as a list endpoint sees it: its size and a way to cut a page. */
export interface Collection<T> {
  readonly total: number;
  slice(start: number, end: number): T[];
  /** The JSON array of `slice(start, end)`, where a collection can write it faster than JSON.stringify. */
  sliceJson?(start: number, end: number): string;
}

export function arrayCollection<T>(items: readonly T[]): Collection<T> {
  return { total: items.length, slice: (start, end) => items.slice(start, end) };
}

/** Answers a list request with the pagination envelope (API document, Pagination envelope). */
export function sendPage<T>(
  state: ReferenceState,
  req: FastifyRequest,
  reply: FastifyReply,
  collection: Collection<T>,
  map?: (item: T) => unknown,
): FastifyReply {
  const query = req.query as Record<string, unknown>;
  const page = state.behaviour.parsePageParam(query.page, 'page');
  if (!page.ok) return invalidParam(reply, 'page', page.message);
  const limit = state.behaviour.parsePageParam(query.limit, 'limit');
  if (!limit.ok) return invalidParam(reply, 'limit', limit.message);
  const window = state.behaviour.pageWindow(collection.total, page.value, limit.value);
  const order = state.behaviour.listOrder(collection.total, (index) => collection.slice(index, index + 1)[0]);
  if (order) {
    const items = order
      .slice(window.start, window.end)
      .flatMap((i) => collection.slice(i, i + 1))
      .map(map ?? ((x) => x));
    return reply.code(200).send({ items, has_more: window.hasMore, total_count: state.behaviour.totalCount(collection.total, items.length) });
  }
  if (collection.sliceJson && !map) {
    // Records: the page is written as text, so that a 10000-item page costs milliseconds.
    const count = Math.max(0, Math.min(window.end, collection.total) - window.start);
    const totalCount = state.behaviour.totalCount(collection.total, count);
    const body = `{"items":${collection.sliceJson(window.start, window.end)},"has_more":${window.hasMore},"total_count":${totalCount}}`;
    return reply.code(200).type('application/json; charset=utf-8').send(body);
  }
  const items = collection.slice(window.start, window.end).map(map ?? ((x) => x));
  return reply.code(200).send({ items, has_more: window.hasMore, total_count: state.behaviour.totalCount(collection.total, items.length) });
}

/** Fastify path syntax from a profile path: `{id}` becomes `:id`. */
export function route(path: string): string {
  return path.replace('{id}', ':id');
}
