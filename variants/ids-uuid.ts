import { createHash } from 'node:crypto';
import { useIdScheme } from './support/identifiers.js';
import { defineVariant } from './variant.js';

/** A version 4 UUID, drawn deterministically (so that the seed data stays the same run to run). */
export function uuidOf(text: string): string {
  const bytes = createHash('sha256').update(text).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Every identifier is a UUID (a uuid primary key), in lists, retrievals and references alike. */
export default defineVariant({
  description: 'identifies workspaces, governance models, records, taxonomies, fields, picklists, submissions and keys by UUIDs',
  openPoint: 'id-format',
  atRisk: ['RES-4', 'RES-5', 'RES-6', 'RES-7', 'ERR-5', 'ERR-8', 'ERR-9', 'AUTH-6', 'SUB-1', 'SUB-4', 'KEY-5', 'KEY-6', 'GEN-3'],
  modify: (reference) => useIdScheme(reference, (kind, sequence, account) => uuidOf(`${account}:${kind}:${sequence}`)),
});
