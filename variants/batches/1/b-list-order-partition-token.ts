import { createHash } from 'node:crypto';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: services whose resources live in Apache Cassandra (or ScyllaDB)
 * tables partitioned by resource id, with the account as a secondary index. A query by account
 * returns rows in the order of the partitioner's token of each row's partition key, not in creation
 * or id order: with the RandomPartitioner, the token is the absolute value of the id's MD5 read as a
 * signed 128-bit integer. The API pages that result as it comes (page N skips (N-1)*limit rows) and
 * sorts nothing, because sorting would mean reading the whole partition set on every page. The order
 * looks random, but it is a pure function of the ids: the same for every request while the table is
 * unchanged, and a new row lands at its token's place, not at the end.
 * Here: every list (workspaces, governance models, records, taxonomies, fields, picklists, API keys,
 * submissions) serves its items in token order of their ids, ties (none in practice) by id.
 *
 * Why it is conformant: the document fixes the envelope and paging arithmetic (Pagination envelope;
 * Pagination parameters), not an order. Every page but the last holds exactly `limit` items,
 * `total_count` counts all matching items, `has_more` is true exactly when more pages follow, and
 * a walk of an unchanging collection sees each resource once. Filters still only narrow, and every
 * listed id is retrievable.
 * Reading taken: "increase page by 1 per request and stop when has_more is false" reads everything
 * of a collection that does not change meanwhile; a collection that grows during a walk may shift,
 * as it may under any order other than "oldest first".
 */

/** RandomPartitioner's token: |MD5(id) as a signed 128-bit big-endian integer|. */
export function partitionToken(id: string): bigint {
  const digest = createHash('md5').update(id, 'utf8').digest('hex');
  const signed = BigInt.asIntN(128, BigInt(`0x${digest}`));
  return signed < 0n ? -signed : signed;
}

const idOf = (item: unknown): string =>
  typeof item === 'object' && item !== null && typeof (item as { id?: unknown }).id === 'string' ? (item as { id: string }).id : '';

export default defineVariant({
  description:
    'serves every list in the token order of a Cassandra scan (RandomPartitioner: |MD5(id)|), stable while a collection is unchanged, neither creation nor id order',
  openPoint: 'list-order',
  atRisk: ['PAG-6', 'PAG-7', 'PAG-8', 'RES-4', 'RES-7', 'SUB-4', 'KEY-3', 'KEY-6'],
  modify: ({ behaviour }) => {
    // Tokens are a function of the id alone; the cache only spares the hashing of rows seen before.
    const tokens = new Map<string, bigint>();
    const tokenOf = (id: string): bigint => {
      let token = tokens.get(id);
      if (token === undefined) {
        token = partitionToken(id);
        tokens.set(id, token);
      }
      return token;
    };
    behaviour.listOrder = (total, itemAt) => {
      const rows: { index: number; id: string; token: bigint }[] = [];
      for (let index = 0; index < total; index++) {
        const id = idOf(itemAt(index));
        rows.push({ index, id, token: tokenOf(id) });
      }
      rows.sort((a, b) => {
        if (a.token !== b.token) return a.token < b.token ? -1 : 1;
        if (a.id !== b.id) return a.id < b.id ? -1 : 1;
        return a.index - b.index;
      });
      return rows.map((row) => row.index);
    };
  },
});
