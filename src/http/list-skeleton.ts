/**
 * A list page parsed lean: the body checked as JSON throughout, but built only as far as a walk
 * reads it. The envelope's members are parsed in full except `items`, whose elements keep only
 * their id member: `{"items": [{"id": "a", "data": {...}}], "has_more": true}` becomes
 * `{items: [{id: "a"}], has_more: true}`. A 10000-item page is 2 MB; JSON.parse spends about
 * 30 ms and most of a walk's memory building objects nobody reads, and the page is never decoded
 * to one string: the scan reads the UTF-8 bytes, and only the values kept are decoded.
 *
 * The scan follows RFC 8259 as JSON.parse does on the decoded text (a byte of a multi-byte
 * character, or of a broken one, is never a quote, bracket or control character, so the bytes
 * scan as the text would); where it finds the body not to be JSON it answers `undefined` and the
 * caller asks JSON.parse, so that JSON.parse alone decides a body is not JSON. For duplicate names
 * the last one wins, as with JSON.parse.
 */
export function listSkeleton(body: Buffer, idField: string | null): object | undefined {
  return new Scan(body).skeleton(idField);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
/** The letters after a backslash that stand alone: " \ / b f n r t. */
const SHORT_ESCAPES = [QUOTE, BACKSLASH, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74];

/** A value or a name that is not where the grammar wants one. */
class NotJson extends Error {}

/**
 * The builder: cold paths (the root, each item's object) as methods over a cursor; the hot path,
 * skipping what is not kept, in the functions below it, which keep the cursor in locals.
 */
class Scan {
  readonly #text: Buffer;
  #at = 0;

  constructor(text: Buffer) {
    this.#text = text;
  }

  skeleton(idField: string | null): object | undefined {
    try {
      this.#space();
      if (this.#code() !== OPEN_BRACE) return undefined;
      const root = this.#members(() => this.#items(idField));
      this.#space();
      return this.#at === this.#text.length ? root : undefined;
    } catch (error) {
      if (error instanceof NotJson) return undefined;
      throw error;
    }
  }

  /** The elements of the items array, each object reduced to its id member. */
  #items(idField: string | null): unknown[] {
    const items: unknown[] = [];
    const idBytes = idField === null ? null : Buffer.from(idField);
    if (this.#opensEmpty(CLOSE_BRACKET)) return items;
    do items.push(this.#code() === OPEN_BRACE ? this.#idOnly(idField, idBytes) : this.#valueAt(this.#at));
    while (!this.#closes(CLOSE_BRACKET));
    return items;
  }

  /** The object at the cursor with only its `idField` member. */
  #idOnly(idField: string | null, idBytes: Buffer | null): object {
    const object: Record<string, unknown> = {};
    if (this.#opensEmpty(CLOSE_BRACE)) return object;
    const text = this.#text;
    do {
      const start = this.#at;
      if (text[start]! !== QUOTE) throw new NotJson();
      const nameEnd = skipString(text, start);
      if (nameEnd < 0) throw new NotJson();
      const valueStart = skipColon(text, nameEnd);
      if (valueStart < 0) throw new NotJson();
      if (idBytes !== null && spells(text, start, nameEnd, idBytes)) put(object, idField!, this.#valueAt(valueStart));
      else if ((this.#at = skipValue(text, valueStart)) < 0) throw new NotJson();
    } while (!this.#closes(CLOSE_BRACE));
    return object;
  }

  /** The root object, every member parsed but `items`, which `items` reads. */
  #members(items: () => unknown): object {
    const object: Record<string, unknown> = {};
    if (this.#opensEmpty(CLOSE_BRACE)) return object;
    do {
      const name = this.#name();
      this.#at = skipColon(this.#text, this.#at);
      if (this.#at < 0) throw new NotJson();
      put(object, name, name === 'items' && this.#code() === OPEN_BRACKET ? items() : this.#valueAt(this.#at));
    } while (!this.#closes(CLOSE_BRACE));
    return object;
  }

  /** Past the opening byte at the cursor and the space after it; true when `close` follows at once (and is passed too). */
  #opensEmpty(close: number): boolean {
    this.#at++;
    this.#space();
    if (this.#code() !== close) return false;
    this.#at++;
    return true;
  }

  /** Past the comma, or the `close` that ends the container, after a member or an element; true for `close`. */
  #closes(close: number): boolean {
    this.#space();
    const code = this.#code();
    this.#at++;
    if (code === close) return true;
    if (code !== COMMA) throw new NotJson();
    this.#space();
    return false;
  }

  /** A member's name, its escapes decoded. */
  #name(): string {
    const start = this.#at;
    if (this.#code() !== QUOTE) throw new NotJson();
    this.#at = skipString(this.#text, start);
    if (this.#at < 0) throw new NotJson();
    return decodeString(this.#text, start, this.#at);
  }

  /** The value at the cursor: a string is cut out; anything else goes to JSON.parse once its end is found. */
  #valueAt(start: number): unknown {
    const end = skipValue(this.#text, start);
    if (end < 0) throw new NotJson();
    this.#at = end;
    if (this.#text[start]! === QUOTE) return decodeString(this.#text, start, end);
    return JSON.parse(this.#text.toString('utf8', start, end));
  }

  #space(): void {
    this.#at = skipSpace(this.#text, this.#at);
  }

  /** The byte at the cursor; undefined past the end, which matches nothing. */
  #code(): number {
    return this.#text[this.#at]!;
  }
}

/** The string from `start` (its opening quote) to `end` (past its closing one), decoded. */
function decodeString(text: Buffer, start: number, end: number): string {
  return hasEscape(text, start, end) ? (JSON.parse(text.toString('utf8', start, end)) as string) : text.toString('utf8', start + 1, end - 1);
}

/** Whether the string from `start` to `end` spells `name`, compared in place when it holds no escape. */
function spells(text: Buffer, start: number, end: number, name: Buffer): boolean {
  if (hasEscape(text, start, end)) return JSON.parse(text.toString('utf8', start, end)) === name.toString('utf8');
  if (end - start - 2 !== name.length) return false;
  // Byte by byte: a name is a few bytes, and Buffer.compare's call costs more than the loop.
  for (let i = 0; i < name.length; i++) if (text[start + 1 + i] !== name[i]) return false;
  return true;
}

function hasEscape(text: Buffer, start: number, end: number): boolean {
  for (let at = start + 1; at < end; at++) if (text[at]! === BACKSLASH) return true;
  return false;
}

/** Past space, tab, line feed and carriage return: JSON's whitespace, nothing else. */
function skipSpace(text: Buffer, at: number): number {
  for (let code = text[at]!; code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09; code = text[++at]!);
  return at;
}

/** Past one value of any depth from `at`, or -1 where the text stops being JSON. */
function skipValue(text: Buffer, at: number): number {
  const first = text[at]!;
  if (first === QUOTE) return skipString(text, at);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) return skipScalar(text, at, first);
  // The containers open, as the byte that closes each: a stack, not recursion.
  const open: number[] = [];
  for (;;) {
    let code = text[at]!;
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      at = skipSpace(text, at + 1);
      const close = code === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
      if (text[at]! !== close) {
        open.push(close);
        if (close === CLOSE_BRACE && (at = skipName(text, at)) < 0) return -1;
        continue;
      }
      at++;
    } else if (code === QUOTE) at = skipString(text, at);
    else at = skipScalar(text, at, code);
    if (at < 0) return -1;
    // After a value: a comma, or the end of as many containers as close here.
    for (;;) {
      if (open.length === 0) return at;
      at = skipSpace(text, at);
      code = text[at]!;
      at++;
      if (code === COMMA) {
        at = skipSpace(text, at);
        if (open[open.length - 1] === CLOSE_BRACE && (at = skipName(text, at)) < 0) return -1;
        break;
      }
      if (code !== open.pop()) return -1;
    }
  }
}

/** Past the number or literal starting at `at` with `code`, or -1. */
function skipScalar(text: Buffer, at: number, code: number): number {
  return code === MINUS || (code >= ZERO && code <= NINE) ? skipNumber(text, at) : skipLiteral(text, at);
}

/** Past `"name" :` and the space after it, or -1. */
function skipName(text: Buffer, at: number): number {
  if (text[at]! !== QUOTE) return -1;
  at = skipString(text, at);
  return at < 0 ? -1 : skipColon(text, at);
}

/** Past the space, the colon and the space after a member's name, or -1. */
function skipColon(text: Buffer, at: number): number {
  at = skipSpace(text, at);
  return text[at]! === COLON ? skipSpace(text, at + 1) : -1;
}

/** Past the string whose opening quote is at `at`, or -1. */
function skipString(text: Buffer, at: number): number {
  const end = text.length;
  for (at++; at < end; at++) {
    const code = text[at]!;
    if (code === QUOTE) return at + 1;
    if (code < 0x20) return -1;
    if (code === BACKSLASH) {
      const next = text[at + 1]!;
      if (next === 0x75 /* u */) {
        if (!HEX4.test(text.toString('latin1', at + 2, at + 6))) return -1;
        at += 5;
      } else if (SHORT_ESCAPES.includes(next)) at++;
      else return -1;
    }
  }
  return -1;
}

const HEX4 = /^[0-9a-fA-F]{4}$/;

/** Past -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?, or -1. */
function skipNumber(text: Buffer, at: number): number {
  if (text[at]! === MINUS) at++;
  if (text[at]! === ZERO) at++;
  else if ((at = skipDigits(text, at)) < 0) return -1;
  if (text[at]! === DOT && (at = skipDigits(text, at + 1)) < 0) return -1;
  const e = text[at]!;
  if (e === 0x65 || e === 0x45) {
    const sign = text[++at]!;
    if (sign === PLUS || sign === MINUS) at++;
    if ((at = skipDigits(text, at)) < 0) return -1;
  }
  return at;
}

/** Past [0-9]+, or -1 when there is no digit. */
function skipDigits(text: Buffer, at: number): number {
  const start = at;
  for (let code = text[at]!; code >= ZERO && code <= NINE; code = text[++at]!);
  return at > start ? at : -1;
}

function skipLiteral(text: Buffer, at: number): number {
  for (const literal of LITERALS) {
    if (at + literal.length <= text.length && text.compare(literal, 0, literal.length, at, at + literal.length) === 0) return at + literal.length;
  }
  return -1;
}

const LITERALS = ['true', 'false', 'null'].map((literal) => Buffer.from(literal));

/** Sets a member as JSON.parse does: one named __proto__ is a member, not the prototype. */
function put(object: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
  else object[name] = value;
}
