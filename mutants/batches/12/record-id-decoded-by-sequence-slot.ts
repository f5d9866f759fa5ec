import { defineMutant } from '../../mutant.js';

/*
 * How this happens: record ids are minted as `rec_` + the account's tag + a five-character base-36
 * sequence number, so the retrieval handler "decodes" the id instead of looking it up: it checks the
 * prefix case-insensitively, reads the fixed five-character slot with `parseInt(slot, 36)` and fetches
 * the row by number. It never re-encodes the number to check that it spells the id it was given, so a
 * real id with characters appended, or with its letters' case changed, resolves to that record.
 */
export default defineMutant({
  description:
    'Record retrieval decodes the sequence slot of the id and ignores the rest: a real record id with characters appended or its case changed is answered 200 with that record instead of 404.',
  breaks: { 'ERR-5': 'fail' },
  modify: (reference) => {
    const template = reference.state.profile.paths.record;
    if (!template) return;
    const url = template.replace('{id}', ':id');
    reference.app.addHook('preHandler', async (req, reply) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || req.routeOptions.url !== url) return;
      const id = (req.params as { id?: string }).id ?? '';
      const records = req.account.data.records;
      if (records.indexOf(id) !== null) return; // the exact id: the normal route
      const prefix = records.idAt(0).slice(0, -5); // `rec_` + the account's tag
      if (!id.toLowerCase().startsWith(prefix)) return;
      const index = parseInt(id.slice(prefix.length, prefix.length + 5), 36);
      if (!Number.isSafeInteger(index) || index < 0 || index >= records.count) return;
      return reply.code(200).send(records.at(index));
    });
  },
});
