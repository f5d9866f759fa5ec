import { isUtf8 } from 'node:buffer';

/**
 * JSON text exchanged between systems must be UTF-8 (RFC 8259 §8.1): a body that is not does not
 * parse as JSON (GEN-1), even though a lenient decoder would turn its bad bytes into U+FFFD and
 * JSON.parse would take the result.
 */

/**
 * The offset of the first byte that starts no well-formed UTF-8 sequence (RFC 3629 §4: no
 * overlong forms, no surrogates, nothing above U+10FFFF), or -1 when every byte is in one.
 * The common case, a valid body, costs one native pass (`isUtf8`).
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  if (isUtf8(bytes)) return -1;
  let at = 0;
  while (at < bytes.length) {
    const lead = bytes[at]!;
    if (lead < 0x80) {
      at++;
      continue;
    }
    const length = sequenceLength(lead);
    if (length === 0) return at;
    // The second byte's range is narrower after E0, ED, F0 and F4 (RFC 3629 §4, UTF8-3 and UTF8-4).
    const [low, high] = SECOND_BYTE[lead] ?? [0x80, 0xbf];
    for (let i = 1; i < length; i++) {
      const next = bytes[at + i];
      if (next === undefined || next < (i === 1 ? low : 0x80) || next > (i === 1 ? high : 0xbf)) return at;
    }
    at += length;
  }
  return -1;
}

/** Bytes of the sequence a lead byte starts; 0 for a byte that starts none (a continuation, C0, C1, F5 to FF). */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

const SECOND_BYTE: Readonly<Record<number, readonly [number, number]>> = {
  0xe0: [0xa0, 0xbf], // no overlong three-byte forms
  0xed: [0x80, 0x9f], // no surrogates (U+D800 to U+DFFF)
  0xf0: [0x90, 0xbf], // no overlong four-byte forms
  0xf4: [0x80, 0x8f], // nothing above U+10FFFF
};

/** Why a body is not UTF-8, with the offset of the first bad byte: `null` when it is UTF-8. */
export function notUtf8(bytes: Uint8Array): string | null {
  const at = firstInvalidUtf8(bytes);
  if (at === -1) return null;
  const byte = bytes[at]!.toString(16).toUpperCase().padStart(2, '0');
  return `not UTF-8 (RFC 8259 §8.1): the byte 0x${byte} at offset ${at} starts no valid UTF-8 sequence`;
}
