import { useIdScheme } from './support/identifiers.js';
import { defineVariant } from './variant.js';

/**
 * Every identifier is the row's autoincrement number as a digit string ("1", "2", "3" and on), one
 * sequence per kind over the whole deployment, so two accounts never share an id.
 */
export default defineVariant({
  description: 'identifies every resource by its database sequence number as a digit string ("1", "42"), one sequence per kind',
  openPoint: 'id-format',
  atRisk: ['RES-4', 'RES-5', 'RES-6', 'RES-7', 'ERR-5', 'ERR-8', 'ERR-9', 'AUTH-6', 'SUB-1', 'SUB-4', 'KEY-5', 'KEY-6', 'GEN-3', 'PAG-10'],
  modify: (reference) => useIdScheme(reference, (_kind, sequence) => String(sequence)),
});
