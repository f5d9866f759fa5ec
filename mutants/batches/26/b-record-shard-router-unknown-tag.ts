import { defineMutant } from '../../mutant.js';
import { beforeItem } from '../../support.js';

/*
 * How this happens: records were sharded across databases and every record id now carries its
 * shard's tag right after `rec_`. The single-record endpoint routes with
 * `shards.get(tagOf(id)).query(...)`: an id whose tag names no shard gets `undefined` from the map
 * and the call throws a TypeError, which the generic error handler turns into 500 api_error. The
 * team's not-found test takes a real id and changes its last characters, which still routes to a
 * real shard and gets the proper 404; ids of another account route to that account's shard and
 * are refused there as before. Only a made-up id (`does-not-exist`, a UUID, `rec_missing`) crashes.
 */
export default defineMutant({
  description:
    'Retrieving a record whose id does not start with a known shard tag (rec_<shard>…), such as a made-up id, crashes the shard router and answers 500 api_error instead of 404 not_found_error.',
  breaks: { 'ERR-5': 'fail', 'GEN-3': 'warn' },
  collateral: [],
  modify: (reference) => {
    // The id prefix of each account's shard: `rec_<tag>`, what precedes the five-digit index.
    const shards = reference.state.store.accounts.map((account) => account.data.records.idAt(0).slice(0, -5));
    beforeItem(reference, 'record', 'GET', async (id) => {
      if (id.includes('/') || shards.some((prefix) => id.startsWith(prefix))) return;
      throw new TypeError("Cannot read properties of undefined (reading 'query')");
    });
  },
});
