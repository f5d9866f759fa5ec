/**
 * A set of strings kept compactly, for the ids of a walk: a million ids held as V8 strings in a
 * `Set` cost about 94 MB; here their UTF-8 bytes sit end to end in one buffer, found through an
 * open-addressing table of entry numbers, about 30 MB for the same million (ids of ten characters). Membership is exact:
 * a hash that matches is confirmed on the bytes. An id UTF-8 cannot carry (a lone surrogate, which
 * JSON can spell as `\ud800`) is kept in a plain Set beside it.
 */
export class IdSet implements Iterable<string> {
  /** The UTF-8 bytes of every id, end to end. */
  #bytes = Buffer.allocUnsafe(64 * 1024);
  #used = 0;
  /** Where entry n starts in #bytes; entry n ends where entry n + 1 starts (or at #used). */
  #starts = new Uint32Array(1024);
  /** Each entry's hash, so that growing the table reads no bytes. */
  #hashes = new Uint32Array(1024);
  /** Slot → entry number + 1 (0: empty); its length is a power of two, at most half full. */
  #table = new Uint32Array(2048);
  #size = 0;
  readonly #illFormed = new Set<string>();

  get size(): number {
    return this.#size + this.#illFormed.size;
  }

  /** Set by #hash: whether the id it hashed is ASCII throughout (one byte a character). */
  #ascii = false;

  has(id: string): boolean {
    const h = this.#hash(id);
    if (!this.#ascii && !wellFormed(id)) return this.#illFormed.has(id);
    return this.#find(id, h) >= 0;
  }

  /** Adds `id`; answers false when it was already in the set. */
  add(id: string): boolean {
    const h = this.#hash(id);
    if (!this.#ascii && !wellFormed(id)) {
      const before = this.#illFormed.size;
      return this.#illFormed.add(id).size > before;
    }
    const slot = this.#find(id, h);
    if (slot >= 0) return false;
    this.#append(id, h, -slot - 1);
    return true;
  }

  /** FNV-1a over the UTF-16 code units, then mixed so that the low bits (the table's slot) spread. */
  #hash(text: string): number {
    let h = 0x811c9dc5;
    let all = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      all |= code;
      h = Math.imul(h ^ code, 0x01000193);
    }
    this.#ascii = all < 0x80;
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    return h >>> 0;
  }

  *[Symbol.iterator](): IterableIterator<string> {
    for (let n = 0; n < this.#size; n++) yield this.#entry(n);
    yield* this.#illFormed;
  }

  /** The entry's slot (>= 0) when `id` is present; otherwise -(free slot) - 1. */
  #find(id: string, h: number): number {
    const mask = this.#table.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const held = this.#table[slot]!;
      if (held === 0) return -slot - 1;
      if (this.#hashes[held - 1] === h && this.#entry(held - 1) === id) return slot;
    }
  }

  #entry(n: number): string {
    const end = n + 1 < this.#size ? this.#starts[n + 1]! : this.#used;
    return this.#bytes.toString('utf8', this.#starts[n]!, end);
  }

  #append(id: string, h: number, slot: number): void {
    const n = this.#size;
    if (n === this.#starts.length) {
      this.#starts = grown(this.#starts, n * 2);
      this.#hashes = grown(this.#hashes, n * 2);
    }
    const length = this.#ascii ? id.length : Buffer.byteLength(id, 'utf8');
    if (this.#used + length > this.#bytes.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.#bytes.length * 2, this.#used + length));
      this.#bytes.copy(bigger, 0, 0, this.#used);
      this.#bytes = bigger;
    }
    this.#starts[n] = this.#used;
    this.#hashes[n] = h;
    if (this.#ascii) {
      // Byte by byte: Buffer.write costs more than the copy for a dozen characters.
      const bytes = this.#bytes;
      for (let i = 0, at = this.#used; i < length; i++, at++) bytes[at] = id.charCodeAt(i);
      this.#used += length;
    } else this.#used += this.#bytes.write(id, this.#used, 'utf8');
    this.#table[slot] = n + 1;
    this.#size = n + 1;
    if (this.#size * 2 > this.#table.length) this.#rehash(this.#table.length * 2);
  }

  #rehash(length: number): void {
    const table = new Uint32Array(length);
    const mask = length - 1;
    for (let n = 0; n < this.#size; n++) {
      let slot = this.#hashes[n]! & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = n + 1;
    }
    this.#table = table;
  }
}

/** Whether UTF-8 round-trips the string: no lone surrogate (String.prototype.isWellFormed, Node 20). */
function wellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

function grown(array: Uint32Array<ArrayBuffer>, length: number): Uint32Array<ArrayBuffer> {
  const bigger = new Uint32Array(length);
  bigger.set(array);
  return bigger;
}
