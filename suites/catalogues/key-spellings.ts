import type { ClauseId } from '../../src/kit.js';

/**
 * Tokens that are no live key, made from one: what AUTH-3 calls unknown ("any token that is not
 * exactly a live key: a real key with a character changed, its letters' case changed, characters
 * added or cut"). Each is a way an implementation may match a token to a key more loosely than
 * exactly: a case-folding cache or collation, a fixed-width column that cuts what is longer, a
 * comparison that stops at the shorter of two strings. Data, not code: AUTH-3's probe sends every
 * entry with the configured key, after its first use (a cache in front of the lookup is warm).
 * The prefix is never touched: a token without it is AUTH-2's malformed header. The transports
 * catalogue's unknown key and AUTH-3's probes of the writes use the first spelling alone.
 */
export interface KeySpelling {
  /** How the report names it: `its secret's letters in the other case`. */
  readonly name: string;
  /** The token, from a live key and the deployment's prefix; null where the key offers nothing to change (no letter). */
  readonly spell: (key: string, prefix: string | null) => string | null;
  /**
   * Its length differs from a key's: a target may call it incorrectly formatted and answer as for a
   * malformed header (a shape the document does not show) rather than with the error envelope.
   */
  readonly lengthChanged: boolean;
  /** The clauses a request carrying it feeds. */
  readonly clauses: readonly ClauseId[];
  /** Clauses it cannot reach, each with the reason. */
  readonly unreached: Readonly<Partial<Record<ClauseId, string>>>;
}

const UNREACHED = {
  'RATE-7': 'a failed credential, which a target may count against the per-IP budget (clause catalogue): the burst without a key judges a window free of them',
} as const;

/** A key with one secret character changed: same length, same alphabet, unknown. */
export function oneCharacterChanged(key: string, prefix: string | null): string {
  const start = prefix && key.startsWith(prefix) ? prefix.length : 0;
  const classes = ['0123456789', 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
  for (let i = start + Math.floor((key.length - start) / 2); i < key.length; i++) {
    const c = key[i]!;
    const alphabet = classes.find((k) => k.includes(c));
    if (!alphabet) continue;
    const next = alphabet[(alphabet.indexOf(c) + 1) % alphabet.length]!;
    return key.slice(0, i) + next + key.slice(i + 1);
  }
  return key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
}

/** Where the secret starts: after the prefix, or, where the prefix is unknown, halfway (a prefix is short). */
function secretStart(key: string, prefix: string | null): number {
  return prefix && key.startsWith(prefix) ? prefix.length : Math.floor(key.length / 2);
}

/** Every letter of the secret in the other case; null for a secret without letters. */
function caseSwapped(key: string, prefix: string | null): string | null {
  const start = secretStart(key, prefix);
  const secret = [...key.slice(start)].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  return secret === key.slice(start) ? null : key.slice(0, start) + secret;
}

/** The key with one more character of the kind its last one is. */
function characterAdded(key: string): string {
  const last = key[key.length - 1] ?? 'a';
  return key + (/\d/.test(last) ? '7' : /[A-Z]/.test(last) ? 'Q' : 'q');
}

export const KEY_SPELLINGS: readonly KeySpelling[] = [
  { name: 'one secret character changed', spell: oneCharacterChanged, lengthChanged: false, clauses: ['AUTH-3', 'AUTH-8'], unreached: UNREACHED },
  { name: "its secret's letters in the other case", spell: caseSwapped, lengthChanged: false, clauses: ['AUTH-3', 'AUTH-8'], unreached: UNREACHED },
  { name: 'one character added at the end', spell: characterAdded, lengthChanged: true, clauses: ['AUTH-3', 'AUTH-8'], unreached: UNREACHED },
  {
    name: 'its last character cut',
    spell: (key, prefix) => (key.length - 1 > secretStart(key, prefix) ? key.slice(0, -1) : null),
    lengthChanged: true,
    clauses: ['AUTH-3', 'AUTH-8'],
    unreached: UNREACHED,
  },
];
