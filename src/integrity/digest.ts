import { createHash } from 'node:crypto';

/** SHA-256 in lowercase hex, the form every digest of the manifest takes. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
