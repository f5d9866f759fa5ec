/**
 * Redaction by value, not by field name: every known secret is replaced wherever it appears,
 * raw, URL-encoded or base64-encoded, and so is any run of 8 or more consecutive characters of
 * a secret's part after the key prefix (the clause catalogue calls such a run "a part of the secret").
 */
import { RunIndex } from './run-index.js';

export const REDACTED = '[REDACTED]';

/** Shortest run of a secret that counts as a part of it (clause catalogue, KEY). */
export const SECRET_PART_LENGTH = 8;

interface KnownSecret {
  readonly value: string;
  /** The characters after the prefix: partial runs are looked for in these. */
  readonly body: string;
}

export class Redactor {
  readonly #secrets: KnownSecret[] = [];
  #whole: RegExp | null = null;
  #part: RegExp | null = null;
  /** Every part and the first part of every whole form, as UTF-8 runs; null: not built yet; false: cannot be (see leaksIn). */
  #runs: RunIndex | false | null = null;

  /** Adds a secret; `prefix` is the deployment's key prefix when known. */
  add(value: string | null | undefined, prefix: string | null = null): void {
    if (!value || this.#secrets.some((s) => s.value === value && s.body !== '')) return;
    const body = prefix && value.startsWith(prefix) ? value.slice(prefix.length) : value;
    this.#secrets.push({ value, body });
    this.#whole = null;
    this.#part = null;
    this.#runs = null;
  }

  /**
   * Adds a value that may be a secret but was never seen to authenticate (a candidate for a new
   * key): redacted where it appears whole, never by parts, so that a name or a word it shares
   * characters with is left alone.
   */
  addWhole(value: string | null | undefined): void {
    if (!value || this.#secrets.some((s) => s.value === value)) return;
    this.#secrets.push({ value, body: '' });
    this.#whole = null;
    this.#part = null;
    this.#runs = null;
  }

  get size(): number {
    return this.#secrets.length;
  }

  /** True when `text` holds a secret or a part of one. */
  leaks(text: string): boolean {
    if (this.#secrets.length === 0 || text.length < SECRET_PART_LENGTH) return false;
    const part = this.#partPattern();
    part.lastIndex = 0;
    return this.#wholePattern().test(text) || part.test(text);
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
    if (runs !== false && runs.find(Buffer.from(text, 'utf8')) < 0) return text;
    let out = text.replace(this.#wholePattern(), REDACTED);
    out = this.#redactParts(out);
    return out;
  }

  /** Redacts every string inside a JSON-like value. */
  redactDeep<T>(value: T): T {
    if (this.#secrets.length === 0) return value;
    return JSON.parse(this.redact(JSON.stringify(value))) as T;
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
    const forms = new Set<string>();
    for (const { value } of this.#secrets) {
      forms.add(value);
      forms.add(encodeURIComponent(value));
      for (const form of base64Forms(value)) forms.add(form);
    }
    return [...forms];
  }

  /** Every run of SECRET_PART_LENGTH characters of a secret's part after the prefix. */
  #parts(): string[] {
    const windows = new Set<string>();
    for (const { body } of this.#secrets) {
      for (let i = 0; i + SECRET_PART_LENGTH <= body.length; i++) windows.add(body.slice(i, i + SECRET_PART_LENGTH));
    }
    return [...windows];
  }

  /** Replaces each partial run, extended as far as it keeps following the secret. */
  #redactParts(text: string): string {
    const pattern = this.#partPattern();
    pattern.lastIndex = 0;
    let out = '';
    let from = 0;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      const end = match.index + this.#extend(text, match.index, match[0]);
      out += text.slice(from, match.index) + REDACTED;
      from = end;
      pattern.lastIndex = end;
    }
    return out + text.slice(from);
  }

  #extend(text: string, at: number, window: string): number {
    let best = window.length;
    for (const { body } of this.#secrets) {
      for (let k = body.indexOf(window); k >= 0; k = body.indexOf(window, k + 1)) {
        let n = window.length;
        while (k + n < body.length && text[at + n] === body[k + n]) n++;
        best = Math.max(best, n);
      }
    }
    return best;
  }
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
