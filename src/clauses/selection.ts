import { FAMILIES, familyOf, isClauseId, type ClauseId } from './catalogue.js';
import { ConformanceError } from '../errors.js';

export interface Selection {
  readonly only: readonly string[];
  readonly skip: readonly string[];
}

/** Parses `--only GEN,PAG-4` or `--skip RATE`: clause IDs or families, upper-cased. */
export function parseSelectors(values: readonly string[], flag: string): string[] {
  const out: string[] = [];
  for (const raw of values.flatMap((v) => v.split(','))) {
    const item = raw.trim().toUpperCase();
    if (item === '') continue;
    if (!isClauseId(item) && !(FAMILIES as readonly string[]).includes(item)) {
      throw new ConformanceError('CONF_SETTING_INVALID', `${flag}: "${raw.trim()}" is neither a clause ID nor a family (${FAMILIES.join(', ')})`);
    }
    out.push(item);
  }
  return out;
}

function matches(id: ClauseId, selectors: readonly string[]): boolean {
  return selectors.includes(id) || selectors.includes(familyOf(id));
}

/** Why the selection leaves the clause out, or null when it runs. */
export function selectionReason(id: ClauseId, selection: Selection): string | null {
  if (selection.only.length > 0 && !matches(id, selection.only)) return 'left out by --only';
  if (matches(id, selection.skip)) return 'left out by --skip';
  return null;
}
