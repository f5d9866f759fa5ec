import { describe, expect, test } from 'vitest';
import { firstInvalidUtf8, notUtf8 } from '../src/http/utf8.js';

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('strict UTF-8 (RFC 8259 §8.1, RFC 3629 §4)', () => {
  test('well-formed text of one to four bytes a character is valid', () => {
    expect(firstInvalidUtf8(Buffer.from('{"a": "é€😀"}'))).toBe(-1);
    expect(notUtf8(Buffer.from(''))).toBeNull();
  });

  test('a Latin-1 byte is found at its offset', () => {
    expect(firstInvalidUtf8(Buffer.from('{"a": "é"}', 'latin1'))).toBe(7);
    expect(notUtf8(Buffer.from('{"a": "é"}', 'latin1'))).toContain('the byte 0xE9 at offset 7');
  });

  test('a stray continuation byte, C0, C1 and F5 to FF start no sequence', () => {
    for (const lead of [0x80, 0xbf, 0xc0, 0xc1, 0xf5, 0xff]) expect(firstInvalidUtf8(bytes(0x41, lead, 0x80, 0x80, 0x80))).toBe(1);
  });

  test('overlong forms, surrogates and code points above U+10FFFF are invalid', () => {
    expect(firstInvalidUtf8(bytes(0xe0, 0x80, 0xaf))).toBe(0); // overlong "/"
    expect(firstInvalidUtf8(bytes(0xed, 0xa0, 0x80))).toBe(0); // U+D800
    expect(firstInvalidUtf8(bytes(0xf0, 0x80, 0x80, 0xaf))).toBe(0); // overlong
    expect(firstInvalidUtf8(bytes(0xf4, 0x90, 0x80, 0x80))).toBe(0); // U+110000
  });

  test('a sequence cut short, in the middle or at the end, is invalid at its lead byte', () => {
    expect(firstInvalidUtf8(bytes(0x41, 0xe2, 0x82, 0x41))).toBe(1);
    expect(firstInvalidUtf8(bytes(0x41, 0x41, 0xf0, 0x9f, 0x98))).toBe(2);
  });
});
