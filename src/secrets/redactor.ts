/**
 * Redaction by value, not by field name: every known secret is replaced wherever it appears,
 * raw, URL-encoded or base64-encoded, and so is any run of 8 or more consecutive characters of
 * a secret's part after the key prefix (the clause catalogue calls such a run "a part of the secret"),
 * the prefix as declared or, beyond it, as the secrets the run knows share it.
 */
import { shapeOf, type SecretMatch, type SecretShape } from './chance.js';
import { RunIndex } from './run-index.js';

export const REDACTED = '[REDACTED]';

/** Shortest run of a secret that counts as a part of it (clause catalogue, KEY). */
export const SECRET_PART_LENGTH = 8;

interface KnownSecret {
  readonly value: string;
  /** The deployment's key prefix as declared; null where it is not (`bodies` infers it). */
  readonly prefix: string | null;
  /** Looked for by its parts too; false for a candidate, redacted only whole (`addWhole`). */
  readonly byParts: boolean;
}

/**
 * Where a secret's part begins, its parts looked for from there: after the declared prefix, and
 * after whatever it shares at its start with any of `others` (the other secrets the run knows).
 */
export function partStart(value: string, declared: string | null, others: Iterable<string>): number {
  let from = declared && value.startsWith(declared) ? declared.length : 0;
  for (const other of others) {
    let n = 0;
    while (n < value.length && n < other.length && value.charCodeAt(n) === other.charCodeAt(n)) n++;
    from = Math.max(from, n);
  }
  return from;
}

export class Redactor {
  readonly #secrets: KnownSecret[] = [];
  #whole: RegExp | null = null;
  #part: RegExp | null = null;
  /** Every part and the first part of every whole form, as UTF-8 runs; null: not built yet; false: cannot be (see leaksIn). */
  #runs: RunIndex | false | null = null;
  /** The indices `redact` and `leaks` search with: null: not built yet; false: cannot be (see #runIndex). */
  #searches: Searches | false | null = null;
  /** Each secret's part after its prefix (`#bodies`); null: not made yet. */
  #bodyList: string[] | null = null;

  /** Adds a secret; `prefix` is the deployment's key prefix when known. */
  add(value: string | null | undefined, prefix: string | null = null): void {
    if (!value || this.#secrets.some((s) => s.value === value && s.byParts)) return;
    this.#secrets.push({ value, prefix, byParts: true });
    this.#forget();
  }

  /**
   * Adds a value that may be a secret but was never seen to authenticate (a candidate for a new
   * key): redacted where it appears whole, never by parts, so that a name or a word it shares
   * characters with is left alone.
   */
  addWhole(value: string | null | undefined): void {
    if (!value || this.#secrets.some((s) => s.value === value)) return;
    this.#secrets.push({ value, prefix: null, byParts: false });
    this.#forget();
  }

  get size(): number {
    return this.#secrets.length;
  }

  /**
   * True when every secret is made of characters no report format escapes (`PLAIN`): letters,
   * digits and `-._~+/=:`. Each then stands in any rendered report exactly as in the values it
   * was rendered from, with its encoded forms and its parts, so that `redact` over the rendered
   * text finds whatever `redactDeep` over the values would have.
   */
  get plainSecrets(): boolean {
    return this.#secrets.every(({ value }) => PLAIN.test(value));
  }

  /** True when `text` holds a secret or a part of one. */
  leaks(text: string): boolean {
    if (this.#secrets.length === 0 || text.length < SECRET_PART_LENGTH) return false;
    const searches = this.#searchIndices();
    if (searches !== false) return searches.parts.findIn(text) >= 0 || this.#wholeAt(searches, text, 0) !== null;
    const part = this.#partPattern();
    part.lastIndex = 0;
    return this.#wholePattern().test(text) || part.test(text);
  }

  /**
   * The secrets with parts that `text` holds, each with the longest run of its part found there,
   * or its whole part where the text holds a whole form of it: the runs `chance.ts` weighs. A
   * secret is known by the order in which it was added; one added whole only is not looked for.
   */
  matchesIn(text: string): SecretMatch[] {
    if (!this.leaks(text)) return [];
    const bodies = this.#bodies();
    const longest = new Map<number, number>();
    this.#secrets.forEach(({ value, byParts }, i) => {
      if (byParts && formsOf(value).some((form) => text.includes(form))) longest.set(i, Math.max(bodies[i]!.length, SECRET_PART_LENGTH));
    });
    // Every place a run of some part starts, followed as far as it keeps following each secret:
    // the longest run starts at one of them.
    const searches = this.#searchIndices();
    const parts = searches === false ? new Set(this.#parts()) : null;
    const next = (at: number): number => {
      if (searches !== false) return searches.parts.findIn(text, at);
      for (let i = at; i + SECRET_PART_LENGTH <= text.length; i++) if (parts!.has(text.slice(i, i + SECRET_PART_LENGTH))) return i;
      return -1;
    };
    for (let at = next(0); at >= 0; at = next(at + 1)) {
      const window = text.slice(at, at + SECRET_PART_LENGTH);
      bodies.forEach((body, i) => {
        for (let k = body.indexOf(window); k >= 0; k = body.indexOf(window, k + 1)) {
          let n = SECRET_PART_LENGTH;
          while (k + n < body.length && text.charCodeAt(at + n) === body.charCodeAt(k + n)) n++;
          if (n > (longest.get(i) ?? 0)) longest.set(i, n);
        }
      });
    }
    return [...longest].map(([secret, run]) => ({ secret, run }));
  }

  /** The shape of each secret's part, in the order they were added (`chance.ts`): its length and alphabet, never its characters. */
  shapes(): SecretShape[] {
    return this.#bodies().map((body) => shapeOf(body));
  }

  /**
   * `leaks` for a body still in bytes, without decoding it: a body that holds none of the runs any
   * leak must contain is clean; one that holds some is decoded and judged by `leaks`.
   */
  leaksIn(bytes: Uint8Array): boolean {
    if (this.#secrets.length === 0 || bytes.length < SECRET_PART_LENGTH) return false;
    const runs = this.#runIndex();
    if (runs !== false && runs.find(bytes) < 0) return false;
    return this.leaks(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  }

  redact(text: string): string {
    if (this.#secrets.length === 0 || text.length < SECRET_PART_LENGTH) return text;
    // The byte index first: a text without any run a secret's form or part must contain is returned
    // as it is, instead of matching every part of every key against it (a run's log and its
    // reports are megabytes, and a key pool makes the pattern thousands of alternatives long).
    const runs = this.#runIndex();
    if (runs === false) return this.#redactParts(text.replace(this.#wholePattern(), REDACTED));
    if (runs.findIn(text) < 0) return text;
    // Then the same two passes as the patterns' (whole forms, then parts of what is left), each
    // found through an index: a run's log holds the main key in every exchange, and matching it
    // against an alternation of every part of every key cost some 120 ms a run.
    const searches = this.#searchIndices() as Searches;
    let out = '';
    let from = 0;
    for (let found = this.#wholeAt(searches, text, 0); found; found = this.#wholeAt(searches, text, from)) {
      out += text.slice(from, found.at) + REDACTED;
      from = found.at + found.form.length;
    }
    out += text.slice(from);
    return this.#redactParts(out, searches.parts);
  }

  /**
   * `redact` for a text already in UTF-8 bytes (a report of megabytes, about to be written): the
   * same forms and parts replaced, found by the byte index in the bytes themselves, so that the
   * text is neither kept as a string of two-byte characters nor encoded after. The result is the
   * bytes of `redact` of the text; `bytes` itself where nothing is to redact.
   */
  redactBytes(bytes: Uint8Array): Uint8Array {
    if (this.#secrets.length === 0 || bytes.length < SECRET_PART_LENGTH) return bytes;
    const runs = this.#runIndex();
    if (runs === false) return Buffer.from(this.redact(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')));
    if (runs.find(bytes) < 0) return bytes;
    // Every run is ASCII here (#runIndex), and so is every part's secret: a run found in the bytes
    // is the same characters in the text, and a part extends over the same bytes as characters.
    const searches = this.#searchIndices() as Searches;
    const pieces: Uint8Array[] = [];
    let from = 0;
    for (let found = this.#wholeAtBytes(searches, bytes, 0); found; found = this.#wholeAtBytes(searches, bytes, from)) {
      pieces.push(bytes.subarray(from, found.at), REDACTED_BYTES);
      from = found.at + found.length;
    }
    const whole = from === 0 ? bytes : Buffer.concat([...pieces, bytes.subarray(from)]);
    pieces.length = 0;
    from = 0;
    for (let at = searches.parts.find(whole, 0); at >= 0; at = searches.parts.find(whole, from)) {
      pieces.push(whole.subarray(from, at), REDACTED_BYTES);
      const window = Buffer.from(whole.buffer, whole.byteOffset + at, SECRET_PART_LENGTH).toString('latin1');
      from = at + this.#extend(window, (n) => whole[at + n]);
    }
    return from === 0 ? whole : Buffer.concat([...pieces, whole.subarray(from)]);
  }

  /** Redacts every string inside a JSON-like value: a copy of it as JSON makes one, each name and string redacted. */
  redactDeep<T>(value: T): T {
    if (this.#secrets.length === 0) return value;
    // String by string rather than as one JSON text: a run's log repeats a few Authorization values
    // thousands of times (each redacted once here), and most of its strings hold no secret at all,
    // so no text of megabytes is written, searched three times and parsed again.
    const done = new Map<string, string>();
    return jsonCopy(value, (text) => {
      let redacted = done.get(text);
      if (redacted === undefined) {
        redacted = this.redact(text);
        if (text.length <= REMEMBERED_LENGTH) done.set(text, redacted);
      }
      return redacted;
    }) as T;
  }

  #wholePattern(): RegExp {
    this.#whole ??= alternation(this.#wholeForms());
    this.#whole.lastIndex = 0;
    return this.#whole;
  }

  #partPattern(): RegExp {
    this.#part ??= alternation(this.#parts());
    return this.#part;
  }

  /**
   * Each part of a secret is a run, and so is the start of each whole form: a text that holds a
   * form holds its first part. Where a run would not be SECRET_PART_LENGTH bytes (a form shorter
   * than a part, a secret outside ASCII), there is no index and leaksIn decodes every body.
   */
  #runIndex(): RunIndex | false {
    if (this.#runs === null) {
      const strings = new Set([...this.#parts(), ...this.#wholeForms().map((form) => form.slice(0, SECRET_PART_LENGTH))]);
      const runs = [...strings].map((s) => Buffer.from(s, 'utf8'));
      this.#runs = runs.every((run) => run.length === SECRET_PART_LENGTH) ? new RunIndex(SECRET_PART_LENGTH, runs) : false;
    }
    return this.#runs;
  }

  /** Every secret as it may appear whole: raw, URL-encoded, base64-encoded. */
  #wholeForms(): string[] {
    return [...new Set(this.#secrets.flatMap(({ value }) => formsOf(value)))];
  }

  /**
   * Each secret's part after its prefix, where partial runs are looked for ('' for one redacted
   * only whole): after the declared prefix, and after whatever it shares at its start with another
   * secret the run knows. The keys of one deployment share their prefix (a `gmk_` the profile may
   * leave undeclared, an account's segment): a run of it is in every new key's creation response,
   * and a part that held it would find each key in every other (a stress run met it: `gmk_` and
   * four hex digits two keys had in common, one run in some thirty). No key is anyone's secret there.
   */
  #bodies(): string[] {
    this.#bodyList ??= this.#secrets.map(({ value, prefix, byParts }, i) =>
      byParts
        ? value.slice(
            partStart(
              value,
              prefix,
              this.#secrets.filter((other, j) => j !== i && other.byParts).map((other) => other.value),
            ),
          )
        : '',
    );
    return this.#bodyList;
  }

  /** Every run of SECRET_PART_LENGTH characters of a secret's part after the prefix. */
  #parts(): string[] {
    const windows = new Set<string>();
    for (const body of this.#bodies()) {
      for (let i = 0; i + SECRET_PART_LENGTH <= body.length; i++) windows.add(body.slice(i, i + SECRET_PART_LENGTH));
    }
    return [...windows];
  }

  /** Replaces each partial run, extended as far as it keeps following the secret; found through `parts` where given. */
  #redactParts(text: string, parts: RunIndex | null = null): string {
    const next = (at: number): number => {
      if (parts) return parts.findIn(text, at);
      const pattern = this.#partPattern();
      pattern.lastIndex = at;
      return pattern.exec(text)?.index ?? -1;
    };
    let out = '';
    let from = 0;
    for (let at = next(0); at >= 0; at = next(from)) {
      const end = at + this.#extend(text.slice(at, at + SECRET_PART_LENGTH), (n) => text.charCodeAt(at + n));
      out += text.slice(from, at) + REDACTED;
      from = end;
    }
    return out + text.slice(from);
  }

  /**
   * The leftmost whole form in `text` from `from`, the longest where several start there (as the
   * alternation of `#wholePattern` finds it).
   */
  #wholeAt(searches: Searches, text: string, from: number): { at: number; form: string } | null {
    for (let at = searches.starts.findIn(text, from); at >= 0; at = searches.starts.findIn(text, at + 1)) {
      const form = searches.forms.get(text.slice(at, at + SECRET_PART_LENGTH))?.find((f) => text.startsWith(f, at));
      if (form) return { at, form };
    }
    return null;
  }

  /** `#wholeAt` over UTF-8 bytes: the leftmost whole form from `from`, and its length in bytes. */
  #wholeAtBytes(searches: Searches, bytes: Uint8Array, from: number): { at: number; length: number } | null {
    for (let at = searches.starts.find(bytes, from); at >= 0; at = searches.starts.find(bytes, at + 1)) {
      // A start found is a run of ASCII bytes: read as Latin-1, it is the start as a string.
      const start = Buffer.from(bytes.buffer, bytes.byteOffset + at, SECRET_PART_LENGTH).toString('latin1');
      for (const form of searches.forms.get(start) ?? []) {
        const encoded = searches.encoded.get(form)!;
        if (encoded.length <= bytes.length - at && startsWithBytes(bytes, encoded, at)) return { at, length: encoded.length };
      }
    }
    return null;
  }

  /** The indices of whole forms' starts and of parts, where `#runIndex` can be built. */
  #searchIndices(): Searches | false {
    if (this.#searches === null) {
      if (this.#runIndex() === false) this.#searches = false;
      else {
        const forms = new Map<string, string[]>();
        for (const form of this.#wholeForms().sort((a, b) => b.length - a.length)) {
          const start = form.slice(0, SECRET_PART_LENGTH);
          forms.set(start, [...(forms.get(start) ?? []), form]);
        }
        const runs = (strings: Iterable<string>) => [...strings].map((s) => Buffer.from(s, 'utf8'));
        this.#searches = {
          starts: new RunIndex(SECRET_PART_LENGTH, runs(forms.keys())),
          forms,
          encoded: new Map([...forms.values()].flat().map((form) => [form, Buffer.from(form, 'utf8')])),
          parts: new RunIndex(SECRET_PART_LENGTH, runs(this.#parts())),
        };
      }
    }
    return this.#searches;
  }

  #forget(): void {
    this.#bodyList = null;
    this.#whole = null;
    this.#part = null;
    this.#runs = null;
    this.#searches = null;
  }

  /**
   * How far a part found in a text (`window`, its first SECRET_PART_LENGTH characters) keeps
   * following a secret: `codeAt(n)` is the text's code unit `n` past the part's start, undefined or
   * NaN past its end. A text in bytes reads a byte a character: where the byte index exists, every
   * secret with parts is ASCII.
   */
  #extend(window: string, codeAt: (n: number) => number | undefined): number {
    let best = window.length;
    for (const body of this.#bodies()) {
      for (let k = body.indexOf(window); k >= 0; k = body.indexOf(window, k + 1)) {
        let n = window.length;
        while (k + n < body.length && codeAt(n) === body.charCodeAt(k + n)) n++;
        best = Math.max(best, n);
      }
    }
    return best;
  }
}

/** Characters that JSON, HTML, XML and Markdown as the reports write them all leave as they are. */
const PLAIN = /^[A-Za-z0-9\-._~+/=:]*$/;

/** Strings up to this length are redacted once for each `redactDeep`: names, header values, short bodies. */
const REMEMBERED_LENGTH = 1024;

/**
 * A copy of a value as `JSON.parse(JSON.stringify(value))` makes it (`toJSON` called, `undefined`
 * and functions left out of objects and null in arrays, numbers that are not finite null), with
 * every string, names included, passed through `text`.
 */
function jsonCopy(value: unknown, text: (s: string) => string): unknown {
  switch (typeof value) {
    case 'string':
      return text(value);
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'boolean':
      return value;
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return null;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return jsonCopy(toJSON.call(value), text);
  // Array.from, not map: a hole is null, as JSON writes it.
  if (Array.isArray(value)) return Array.from(value, (item) => jsonCopy(item, text) ?? null);
  const copy: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    const itemCopy = jsonCopy(item, text);
    // defineProperty: a name like `__proto__` (a target's header may be called anything) stays a name.
    if (itemCopy !== undefined) Object.defineProperty(copy, text(name), { value: itemCopy, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/** What `redact` searches a text with: the starts of whole forms (each with its forms, longest first), and the parts. */
interface Searches {
  readonly starts: RunIndex;
  readonly forms: ReadonlyMap<string, readonly string[]>;
  /** Each whole form in UTF-8, for `redactBytes`. */
  readonly encoded: ReadonlyMap<string, Uint8Array>;
  readonly parts: RunIndex;
}

const REDACTED_BYTES = Buffer.from(REDACTED);

function startsWithBytes(bytes: Uint8Array, prefix: Uint8Array, at: number): boolean {
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

/** A secret as it may appear whole: raw, URL-encoded, base64-encoded. */
function formsOf(value: string): string[] {
  return [value, encodeURIComponent(value), ...base64Forms(value)];
}

/**
 * The base64 and base64url spellings of a secret wherever it sits in an encoded text: alone, and
 * the part that survives at each of the three byte alignments (as in `Basic base64("key:")`),
 * where the groups at either edge mix in neighbouring bytes and are left out.
 */
export function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value);
  const forms = [bytes.toString('base64'), bytes.toString('base64url')];
  for (let shift = 0; shift < 3; shift++) {
    const padded = Buffer.concat([Buffer.alloc(shift), bytes]);
    const whole = Math.floor(padded.length / 3) * 4;
    const encoded = padded.toString('base64').slice(shift === 0 ? 0 : 4, whole);
    // Too short a middle would match by chance; the raw forms still cover short secrets.
    if (encoded.length < 12) continue;
    forms.push(encoded, encoded.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

function alternation(strings: string[]): RegExp {
  const sorted = strings.filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  // No string at all (a secret shorter than a part): a pattern that never matches, not an empty
  // one that matches everywhere.
  if (sorted.length === 0) return /(?!)/g;
  return new RegExp(sorted.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
}
