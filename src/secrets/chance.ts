/**
 * Whether a part of a secret found in the run's responses shows a leak, or is what chance alone
 * would put there. The catalogue calls any run of 8 characters of a key after its prefix a part of
 * it, and a response holds many runs of 8 characters: a key of 48 hex digits and the run's ids of
 * 12 hex digits share 8 of them, by chance alone, about once in a thousand runs (a Python
 * implementation written blind met it, and KEY-4 failed a conformant target). A secret is drawn at
 * random; a leak repeats it, whole, or a long run of it, or runs of several keys at once. So the
 * runs found are weighed by how often chance would find them: as often as CHANCE_BOUND or less,
 * they are a leak.
 */

/** Chance finds what was found in fewer than one run in a million: it is a leak. */
export const CHANCE_BOUND = 1e-6;

/** A secret a text holds: its index among the secrets looked for, and the longest run of its part the text holds. */
export interface SecretMatch {
  readonly secret: number;
  /** Characters of the secret's part in one run; its whole part where the text holds a whole form of the secret. */
  readonly run: number;
}

/** What a secret is drawn from, never the secret itself: the length of its part after the prefix, and its characters. */
export interface SecretShape {
  readonly part: number;
  readonly alphabet: AlphabetName;
  /** Characters its alphabet holds. */
  readonly size: number;
}

interface Alphabet {
  readonly size: number;
  /** One character of it. */
  readonly char: RegExp;
}

/**
 * The usual alphabets of random keys, smallest first: a secret is taken to be drawn from the
 * smallest that holds every character of its part. A smaller alphabet makes chance likelier, so
 * where none of these holds the part, its distinct characters are taken for its alphabet (`shapeOf`).
 */
const ALPHABETS = {
  digits: { size: 10, char: /[0-9]/ },
  hex: { size: 16, char: /[0-9a-f]/ },
  HEX: { size: 16, char: /[0-9A-F]/ },
  base32: { size: 32, char: /[A-Z2-7]/ },
  base32lower: { size: 32, char: /[a-z2-7]/ },
  base36: { size: 36, char: /[0-9a-z]/ },
  BASE36: { size: 36, char: /[0-9A-Z]/ },
  base62: { size: 62, char: /[0-9A-Za-z]/ },
  base64url: { size: 64, char: /[0-9A-Za-z_-]/ },
  base64: { size: 64, char: /[0-9A-Za-z+/=]/ },
  printable: { size: 94, char: /[!-~]/ },
} as const satisfies Record<string, Alphabet>;

export type AlphabetName = keyof typeof ALPHABETS | 'other';

/** The smallest usual alphabet that holds every character of `part`; 'other' where none does. */
export function alphabetOf(part: string): AlphabetName {
  const chars = [...new Set(part)];
  for (const [name, { char }] of Object.entries(ALPHABETS)) if (chars.every((c) => char.test(c))) return name as AlphabetName;
  return 'other';
}

/** The shape of a secret's part; an alphabet of none of the usual ones is as large as the characters the part holds. */
export function shapeOf(part: string): SecretShape {
  const alphabet = alphabetOf(part);
  return { part: part.length, alphabet, size: alphabet === 'other' ? Math.max(2, new Set(part).size) : ALPHABETS[alphabet].size };
}

/**
 * How likely chance alone would have made the texts hold these runs: each secret drawn at random
 * from its alphabet, independently of everything the texts held. For one secret, a run of L
 * characters may start at any of its part's (part - L + 1) places, and be any of the texts' runs of
 * L characters of its alphabet (each distinct one counted once: an id repeated on every page is
 * one coincidence, not many). Where several secrets are found, chance must have found each of them:
 * with K secrets looked for, k of them each found at odds of at most e happen at odds of at most
 * C(K, k) e^k. The odds of the likeliest reading are returned.
 *
 * `texts` are read only where something was found; `unread` counts the characters of texts not
 * given whole (bodies cut short for the log), each taken for a run of its own.
 */
export function chanceOf(matches: readonly SecretMatch[], shapes: readonly SecretShape[], texts: () => Iterable<string>, unread = 0): number {
  const longest = new Map<number, number>();
  for (const { secret, run } of matches) longest.set(secret, Math.max(run, longest.get(secret) ?? 0));
  if (longest.size === 0) return 1;
  const windows = new Map<string, number>();
  const windowsOf = (alphabet: AlphabetName, length: number): number => {
    const key = `${alphabet} ${length}`;
    let count = windows.get(key);
    if (count === undefined) {
      count = runsOf(texts(), alphabet, length) + unread;
      windows.set(key, count);
    }
    return count;
  };
  const odds = [...longest]
    .map(([secret, run]) => {
      const shape = shapes[secret];
      if (!shape) return 1;
      const length = Math.min(run, shape.part);
      return Math.min(1, ((shape.part - length + 1) * windowsOf(shape.alphabet, length)) / shape.size ** length);
    })
    .sort((a, b) => a - b);
  const secrets = Math.max(shapes.length, odds.length);
  let least = 1;
  for (let k = 1; k <= odds.length; k++) least = Math.min(least, Math.exp(logChoose(secrets, k) + k * Math.log(odds[k - 1]!)));
  return least;
}

/** Whether the runs found show a leak: chance would find them at most CHANCE_BOUND of the time. */
export function beyondChance(matches: readonly SecretMatch[], shapes: readonly SecretShape[], texts: () => Iterable<string>, unread = 0): boolean {
  return matches.length > 0 && chanceOf(matches, shapes, texts, unread) <= CHANCE_BOUND;
}

/**
 * Distinct runs of `length` characters of the alphabet in the texts: the runs a secret's run of
 * that length could have met by chance.
 */
function runsOf(texts: Iterable<string>, alphabet: AlphabetName, length: number): number {
  const char = alphabet === 'other' ? /[^\s"'<>]/ : ALPHABETS[alphabet].char;
  const token = new RegExp(`${char.source}{${length},}`, 'g');
  const seen = new Set<string>();
  let count = 0;
  for (const text of texts) {
    for (const [found] of text.matchAll(token)) {
      if (seen.has(found)) continue;
      seen.add(found);
      count += found.length - length + 1;
    }
  }
  return count;
}

/** ln C(n, k). */
function logChoose(n: number, k: number): number {
  let sum = 0;
  for (let i = 0; i < k; i++) sum += Math.log(n - i) - Math.log(i + 1);
  return sum;
}

/** Secrets that can be looked for in texts: a Redactor. */
export interface SecretsLookedFor {
  matchesIn(text: string): SecretMatch[];
  shapes(): SecretShape[];
}

/**
 * Of `texts`, read together as one check's evidence, the indices of those that hold a part of a
 * secret, where together they show a leak; none where chance explains all they hold.
 */
export function leakingTexts(secrets: SecretsLookedFor, texts: readonly string[]): number[] {
  const found = texts.map((text) => secrets.matchesIn(text));
  const matches = found.flat();
  if (!beyondChance(matches, secrets.shapes(), () => texts)) return [];
  return found.flatMap((m, i) => (m.length > 0 ? [i] : []));
}
