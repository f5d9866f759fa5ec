import type { Modification } from '../../reference/server.js';
import type { Variant } from '../../variants/variant.js';
import type { Profile } from '../../src/profile/profile.js';
import type { ConformanceDocument } from '../../src/report/document.js';

/** What a run of a conformant variant flagged that it must not have. */
export interface ToleranceVerdict {
  /** MUST failures, suite faults, and warnings the variant does not declare. */
  readonly falseFindings: string[];
}

/**
 * A conformant variant may be flagged only with the warnings it declares; a failure or an error
 * is a false verdict, and so is a 429 the run did not mean to meet (its pacing misread the headers). Under the document-only profile (`documentOnly`), warnings are allowed too:
 * the run knows no fact, so a SHOULD may read a choice as a deviation, but nothing may fail.
 *
 * `sharing`: the other variants of a shared run (`sharedServers`). A clause within another's reach
 * is judged in that one's verdict; every other flag, and every suite fault, is this one's too.
 */
export function judgeTolerance(
  variant: Variant,
  report: ConformanceDocument,
  options: { documentOnly?: boolean; sharing?: readonly Variant[] } = {},
): ToleranceVerdict {
  const declared = new Set(Object.keys(variant.mayWarn ?? {}));
  const others = new Set((options.sharing ?? []).filter((other) => other !== variant).flatMap(reachOf));
  const falseFindings = report.clauses
    .filter((c) => !others.has(c.id))
    .filter((c) => c.status === 'fail' || c.status === 'error' || (c.status === 'warn' && !options.documentOnly && !declared.has(c.id)))
    .map((c) => `${c.id} ${c.status}: ${c.reason ?? ''}`);
  return { falseFindings: [...falseFindings, ...report.suiteFaults.map((f) => `suite fault: ${f}`), ...keysLeft(report), ...unplanned429s(report)] };
}

/** The run's pacing kept within every window the variant's headers named: it met no 429 it did not mean to. */
function unplanned429s(report: ConformanceDocument): string[] {
  const count = report.environment.unplanned429;
  return count > 0 ? [`${count} unplanned 429 response(s): the run's pacing overran a window the variant's headers named`] : [];
}

/** The clauses a variant's choice could sway: those at risk, and those it may warn on. */
function reachOf(variant: Variant): string[] {
  return [...variant.atRisk, ...Object.keys(variant.mayWarn ?? {})];
}

/**
 * Variants that can share one server and one run: each group's choices are made together by one
 * reference, under one profile declaring all their facts. Two share only where their settings
 * allow: different open points (two answers to one question cannot both be served), no clause
 * within both one's and the other's reach (so that every flag belongs to at most one of them, and
 * no declared warning covers another's), and profiles that change different facts. A variant about
 * rate limits runs alone, with the checks that exhaust a budget. Each group is one run instead of
 * one a variant, some five CPU-seconds each; a group's failure names its variants, and
 * `scripts/try-variant.ts` runs one alone.
 */
export function sharedServers<Name extends string>(names: readonly Name[], variants: Readonly<Record<Name, Variant>>, reference: Profile): Name[][] {
  const groups: Name[][] = [];
  const facts = new Map(names.map((name) => [name, changedFacts(reference, variants[name])]));
  const compatible = (a: Name, b: Name) => {
    const [va, vb] = [variants[a], variants[b]];
    if (va.rateLimits || vb.rateLimits || va.openPoint === vb.openPoint) return false;
    const reach = new Set(reachOf(va));
    if (reachOf(vb).some((id) => reach.has(id))) return false;
    return !facts.get(a)!.some((x) => facts.get(b)!.some((y) => x === y || x.startsWith(`${y}.`) || y.startsWith(`${x}.`)));
  };
  for (const name of names) {
    const group = groups.find((members) => members.every((member) => compatible(member, name)));
    if (group) group.push(name);
    else groups.push([name]);
  }
  return groups;
}

/** The reference's profile with every variant's facts, and every variant's modification made. */
export function sharedTarget(group: readonly Variant[], reference: Profile): { readonly served: Profile; readonly modify?: Modification } {
  const served = group.reduce((profile, variant) => variant.profile?.(profile) ?? profile, reference);
  const modifications = group.flatMap((variant) => (variant.modify ? [variant.modify] : []));
  if (modifications.length === 0) return { served };
  return { served, modify: (app) => modifications.forEach((modify) => modify(app)) };
}

/** The facts (dotted paths of the profile) a variant's profile changes. */
function changedFacts(reference: Profile, variant: Variant): string[] {
  return variant.profile ? differences(reference, variant.profile(reference), '') : [];
}

function differences(a: unknown, b: unknown, path: string): string[] {
  if (a === b) return [];
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) || Array.isArray(b)) {
    return JSON.stringify(a) === JSON.stringify(b) ? [] : [path];
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((key) => differences((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], path ? `${path}.${key}` : key));
}

/**
 * A run leaves no live key behind: none where the profile declares a key path, at most the one
 * probe key where it does not and the conventional path does not delete keys.
 */
function keysLeft(report: ConformanceDocument): string[] {
  const keys = (entries: readonly { kind: string }[]) => entries.filter((e) => e.kind === 'api_key').length;
  const left = keys(report.resources.created) - keys(report.resources.removed);
  const declared = (report.profile.content as { paths?: { apiKey?: string | null } }).paths?.apiKey != null;
  const allowed = declared ? 0 : 1;
  return left > allowed ? [`${left} key(s) left on the target (at most ${allowed} allowed)`] : [];
}
