import type { FastifyReply } from 'fastify';
import { defineMutant } from '../../mutant.js';
import { beforeItem } from '../../support.js';
import type { PathName } from '../../../src/profile/profile.js';
import type { SeedData } from '../../../reference/data.js';

/*
 * How this happens: tenancy lives on the taxonomies table (`taxonomies.account_id`); fields and
 * picklists are child tables with no account column of their own and inherit their tenant through
 * the taxonomy. The list endpoints are built on a scope that joins through taxonomies and filters
 * on the account, but the show endpoints were scaffolded as a plain `Field.find(id)` /
 * `Picklist.find(id)` by primary key, with the taxonomy eager-loaded only for display. Nothing
 * scopes them: a field or picklist id of another account is found and served (200) instead of 404.
 * Lists, taxonomies and everything the account owns behave as before.
 */
export default defineMutant({
  description:
    "Retrieving a field or a picklist by id looks it up by primary key without the join through the account's taxonomies, so another account's field or picklist is served (200) instead of 404.",
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['ERR-9'],
  modify: (reference) => {
    const { store } = reference.state;
    const unscoped = (path: PathName, pick: (data: SeedData) => readonly { id: string }[]) => {
      for (const method of ['GET', 'HEAD']) {
        beforeItem(reference, path, method, async (id, req, reply: FastifyReply) => {
          if (pick(req.account.data).some((item) => item.id === id)) return; // own: the normal route
          for (const account of store.accounts) {
            const found = pick(account.data).find((item) => item.id === id);
            if (found) return reply.code(200).send(found);
          }
        });
      }
    };
    unscoped('field', (data) => data.fields);
    unscoped('picklist', (data) => data.picklists);
  },
});
