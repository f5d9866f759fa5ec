/**
 * Where the complete key is in a creation response. The document says the response "contains
 * the full key once" and leaves its member name open: the profile may declare it
 * (`apiKeyFields.secret`); otherwise every string of the response is a candidate, best first.
 * A candidate becomes the key only once it authenticates (`identify.ts`).
 */

export interface SecretClues {
  /** The profile's member for the key, when declared: then it is the only candidate. */
  readonly member: string | null;
  /** The name the run sent: echoed back, never the key. */
  readonly sentName: string | null;
  /** The key prefix, declared or inferred: candidates that start with it come first. */
  readonly prefix: string | null;
}

/** An ISO 8601 date or time: `created_at`, `last_used_at`, `expires_at`. */
const TIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Members that hold an identifier by convention; their value is the key only if it looks like one. */
const ID_MEMBER = /(^|_)id$|^uuid$/i;

/**
 * A link (`_links.self.href`, `url`, `location`): an absolute URL or a path. The key is sent in a
 * header and is never one; as a candidate a link would be tried as the key and, worse, redacted
 * wherever it appears in the report, request URLs included.
 */
const LINK = /^([a-z][a-z0-9+.-]*:\/\/|\/)/i;

/** Shorter than any credential worth the name: statuses, kinds, hints. */
const MIN_LENGTH = 8;

/**
 * Candidate values for the complete key, best first: those that start with the prefix, then the
 * longest. Never the name sent, a time, a link, a value with white space, a hint (`…ab12`), or an
 * id-named member's value unless it starts with the prefix.
 */
export function secretCandidates(body: unknown, clues: SecretClues): string[] {
  if (typeof body !== 'object' || body === null) return [];
  if (clues.member) {
    const value = (body as Record<string, unknown>)[clues.member];
    return typeof value === 'string' && value !== '' ? [value] : [];
  }
  const found: { value: string; idMember: boolean }[] = [];
  collect(body, null, found, 0);
  const prefixed = (v: string) => clues.prefix !== null && v.startsWith(clues.prefix);
  const eligible = found.filter(({ value, idMember }) => {
    if (value === clues.sentName || value.length < MIN_LENGTH || /\s/.test(value) || value.startsWith('…')) return false;
    if (TIME.test(value) || LINK.test(value)) return false;
    return !idMember || prefixed(value);
  });
  const unique = [...new Set(eligible.map((c) => c.value))];
  return unique.sort((a, b) => Number(prefixed(b)) - Number(prefixed(a)) || b.length - a.length);
}

/** Strings at any depth, with whether their member's name says "identifier". */
function collect(value: unknown, member: string | null, out: { value: string; idMember: boolean }[], depth: number): void {
  if (depth > 8) return;
  if (typeof value === 'string') out.push({ value, idMember: member !== null && ID_MEMBER.test(member) });
  else if (Array.isArray(value)) for (const item of value) collect(item, member, out, depth + 1);
  else if (typeof value === 'object' && value !== null) for (const [name, inner] of Object.entries(value)) collect(inner, name, out, depth + 1);
}
