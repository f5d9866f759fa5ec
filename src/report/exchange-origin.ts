import { isClauseId, type ClauseId } from '../clauses/catalogue.js';
import type { Exchange } from '../http/exchange.js';

/** Who made an exchange: the clause and check title its check name carries (`check.ts` names a check `<clause> <title>`). */
export interface ExchangeOrigin {
  readonly clause: ClauseId | null;
  /** The check's title, or the run's own work (`preflight`, `cleanup`), or null when nothing named it. */
  readonly check: string | null;
}

export function originOf(exchange: Pick<Exchange, 'check'>): ExchangeOrigin {
  const name = exchange.check;
  if (!name) return { clause: null, check: null };
  const space = name.indexOf(' ');
  const first = space > 0 ? name.slice(0, space) : name;
  return isClauseId(first) ? { clause: first, check: name.slice(space + 1) } : { clause: null, check: name };
}
