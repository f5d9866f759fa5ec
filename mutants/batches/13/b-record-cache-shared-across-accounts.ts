import type { FastifyReply } from 'fastify';
import { defineMutant } from '../../mutant.js';
import { beforeItem } from '../../support.js';

/*
 * How this happens: record retrieval was slow, so a read-through cache was put in front of it,
 * keyed by the record id alone; record ids are globally unique, so nobody thought to add the
 * account to the key. The tenant check lives in the database query the cache skips, so once any
 * account has read a record, every other account's key can read it too until the entry expires.
 */
export default defineMutant({
  description: "Retrieved records are cached by id alone; a record one account has retrieved is served (200) to any other account's key that asks for it.",
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['ERR-5', 'ERR-9'],
  modify: (reference) => {
    const cache = new Map<string, { body: unknown; at: number }>();
    const ttlMs = 5 * 60 * 1000;
    beforeItem(reference, 'record', 'GET', async (id, req, reply: FastifyReply) => {
      const hit = cache.get(id);
      if (hit && reference.state.now() - hit.at < ttlMs) return reply.code(200).send(hit.body);
      const records = req.account.data.records;
      const index = records.indexOf(id);
      if (index !== null) cache.set(id, { body: records.at(index), at: reference.state.now() });
    });
  },
});
