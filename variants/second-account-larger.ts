import { seedAccount } from '../reference/data.js';
import { defineVariant } from './variant.js';

/** Records of the second account: more than the main account's (reference/server.ts, REFERENCE_RECORDS). */
const OTHER_RECORDS = 400;

/**
 * The second account is the larger one: 400 records, 12 workspaces, more governance models; the
 * first keeps the reference's data. Its ids stay its own (tag "b"), as in the reference.
 */
export default defineVariant({
  description: 'the second account holds more data than the first: 400 records, 12 workspaces, 9 governance models',
  openPoint: 'account-data',
  atRisk: ['AUTH-6'],
  modify: ({ state }) => {
    const other = state.store.accounts[1]!;
    const seeded = seedAccount(20261123 + 7, 'b', OTHER_RECORDS);
    const extra = (prefix: string, n: number) => `${prefix}_bx${n.toString(36).padStart(4, '0')}${(n * 7919).toString(36)}`;
    seeded.workspaces.push(
      ...Array.from({ length: 8 }, (_, n) => ({ id: extra('ws', n), name: `Regional workspace ${n + 1}`, description: `Second account workspace ${n + 1}` })),
    );
    seeded.governanceModels.push(
      ...Array.from({ length: 4 }, (_, n) => ({
        id: extra('gm', n),
        name: `Extra model ${n + 1}`,
        description: n % 2 === 0 ? null : `Extra governance model ${n + 1}`,
      })),
    );
    // The account object is the reference's: its data members are replaced in place.
    Object.assign(other.data, seeded);
  },
});
