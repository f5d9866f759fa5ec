import { createHash } from 'node:crypto';
import { useIdScheme, type IdKind } from './support/identifiers.js';
import { defineVariant } from './variant.js';

const PREFIX: Record<IdKind, string> = {
  workspace: 'wksp',
  governance_model: 'gov',
  taxonomy: 'txn',
  field: 'fld',
  picklist: 'pkl',
  record: 'rec',
  submission: 'sub',
  api_key: 'key',
};

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** 24 case-sensitive base62 characters, drawn deterministically from `text`. */
function base62(text: string): string {
  const bytes = createHash('sha256').update(text).digest();
  return Array.from(bytes.subarray(0, 24), (byte) => BASE62[byte % 62]).join('');
}

/** Stripe-style ids: a type prefix and 24 case-sensitive base62 characters ("rec_4fQz…"). */
export default defineVariant({
  description: 'identifies every resource by a type prefix and 24 case-sensitive base62 characters ("rec_4fQzR9…", "wksp_…", "gov_…")',
  openPoint: 'id-format',
  atRisk: ['RES-4', 'RES-5', 'RES-6', 'RES-7', 'ERR-5', 'ERR-8', 'ERR-9', 'AUTH-6', 'SUB-1', 'SUB-4', 'KEY-5', 'KEY-6', 'GEN-3'],
  modify: (reference) => useIdScheme(reference, (kind, sequence, account) => `${PREFIX[kind]}_${base62(`${account}:${kind}:${sequence}`)}`),
});
