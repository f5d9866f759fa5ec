import { defineMutant } from '../../mutant.js';

/*
 * How this happens: key ids come from a database sequence in each region. The second region was
 * brought up from a snapshot of the first, so both sequences continue from the same value, and
 * nobody set the per-region offset/increment. The key table is owned by region A; a key created
 * in region B is written to B's outbox and replicated to A with `INSERT ... ON CONFLICT (id) DO
 * NOTHING`, while the hash index that authentication reads is replicated separately (keyed by the
 * hash, so it never conflicts). The global load balancer alternates key creations between the
 * regions, so every key that region B issues reuses an id region A already gave to a key of the
 * account: the new key authenticates, but its row is dropped. It never appears in the key list,
 * and `DELETE /api_keys/{its id}` revokes the other key that owns that id, leaving it working.
 * Each region's own tests create one key at a time on a fresh database and never see a clash.
 */
export default defineMutant({
  description:
    'Key ids come from per-region sequences that overlap: every second key created gets an id an earlier key of the account already holds, so it works but is missing from the key list, and deleting it by its id revokes the other key instead.',
  breaks: { 'KEY-3': 'fail', 'KEY-5': 'fail' },
  collateral: ['KEY-1', 'KEY-2', 'KEY-6', 'KEY-7', 'RATE-5', 'RATE-6'],
  modify: (reference) => {
    const { store } = reference.state;
    const create = store.createKey.bind(store);
    // Both regions' sequences start from the snapshot's value.
    let regionA = 0;
    let regionB = 0;
    let creations = 0;
    store.createKey = (account, name) => {
      const created = create(account, name);
      const sequence = creations++ % 2 === 0 ? ++regionA : ++regionB;
      const id = `key_${(4096 + sequence).toString(36).padStart(8, '0')}`;
      account.keys.delete(created.record.id);
      (created.record as { id: string }).id = id;
      // ON CONFLICT DO NOTHING: the row that holds the id first keeps it.
      if (!account.keys.has(id)) account.keys.set(id, created.record);
      return created;
    };
  },
});
