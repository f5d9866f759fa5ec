/**
 * `text` as a sentence: a full stop added unless it already ends one. The words a report closes
 * with a full stop are often a message of their own (a preflight's "is the base URL the web app's?").
 */
export function sentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.?!…:]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
