/**
 * A covering array of strength 2: rows (one value of every dimension each) such that every pair of
 * values of every two dimensions that some valid row holds appears in at least one row. Faults
 * mostly need one or two factors together (NIST's studies behind its combinatorial testing tools),
 * so this visits, in a few dozen requests, every meeting of two things the run varies.
 *
 * Built greedily, as AETG does: every valid row of the (small) space is enumerated, and the row that
 * covers the most pairs not yet covered is taken, ties broken by the seed, until none is left.
 * Small and dependency-free; the same dimensions and seed give the same rows, so a finding replays.
 * The space here is a few thousand rows; a space of millions would want IPOG's column-wise growth.
 */

/** Dimensions by name, each with its values; a row gives every dimension one value. */
export type Dimensions = Readonly<Record<string, readonly string[]>>;
export type Row<D extends Dimensions> = { readonly [K in keyof D]: D[K][number] };

export interface CoveringArray<D extends Dimensions> {
  readonly rows: readonly Row<D>[];
  /** Every pair some valid row shows: what the rows cover, whole. */
  readonly pairs: number;
  /** Pairs of values no valid row shows (the API gives them no meaning), each `dimension=value × dimension=value`. */
  readonly meaningless: readonly string[];
}

/** A pair's name: `credential=no key × header=If-None-Match: *`, dimensions in declared order. */
export function pairName(a: string, va: string, b: string, vb: string): string {
  return `${a}=${va} × ${b}=${vb}`;
}

/** The pairs one row holds. */
export function pairsOf<D extends Dimensions>(dimensions: D, row: Row<D>): string[] {
  const names = Object.keys(dimensions);
  const out: string[] = [];
  for (let i = 0; i < names.length; i++)
    for (let j = i + 1; j < names.length; j++) out.push(pairName(names[i]!, row[names[i]!] as string, names[j]!, row[names[j]!] as string));
  return out;
}

/**
 * Every row of the space that `valid` keeps. The space is some forty thousand rows, of which a few
 * hundred are valid: one row is filled in place like an odometer and asked of `valid`, and only a
 * kept row is copied (made whole level by level, the space cost 36 ms a call). So `valid` must not
 * keep the row it is handed.
 */
function enumerate<D extends Dimensions>(dimensions: D, valid: (row: Row<D>) => boolean): Row<D>[] {
  const names = Object.keys(dimensions);
  const values = names.map((name) => dimensions[name]!);
  const at = names.map(() => 0);
  const row: Record<string, string> = Object.fromEntries(names.map((name, i) => [name, values[i]![0]!]));
  const kept: Row<D>[] = [];
  if (values.some((list) => list.length === 0)) return kept;
  for (;;) {
    if (valid(row as Row<D>)) kept.push({ ...row } as Row<D>);
    // The last dimension turns fastest, as the rows were always listed.
    let i = names.length - 1;
    while (i >= 0 && ++at[i]! === values[i]!.length) {
      at[i] = 0;
      row[names[i]!] = values[i]![0]!;
      i--;
    }
    if (i < 0) return kept;
    row[names[i]!] = values[i]![at[i]!]!;
  }
}

/** A small seeded generator (mulberry32): the tie-breaks of one seed are the same on every machine. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `shows` names the pairs a row's answer can show, of those it holds (all by default): a row whose
 * request is refused before most of it is looked at (a failed credential) shows only the pairs of
 * what refused it, so that the other pairs it holds must meet again in a row that reaches them.
 */
export function coveringArray<D extends Dimensions>(
  dimensions: D,
  valid: (row: Row<D>) => boolean,
  seed: number,
  shows: (row: Row<D>, pairs: readonly string[]) => readonly string[] = (_row, pairs) => pairs,
  /** Of rows that cover as many new pairs, the cheaper is taken (a row on the scarcest budget costs more); then the seed decides. */
  cost: (row: Row<D>) => number = () => 0,
): CoveringArray<D> {
  const space = enumerate(dimensions, valid).map((row) => ({ row, pairs: shows(row, pairsOf(dimensions, row)), cost: cost(row) }));
  const uncovered = new Set(space.flatMap((s) => s.pairs));
  const pairs = uncovered.size;
  const names = Object.keys(dimensions);
  const meaningless: string[] = [];
  for (let i = 0; i < names.length; i++)
    for (let j = i + 1; j < names.length; j++)
      for (const va of dimensions[names[i]!]!)
        for (const vb of dimensions[names[j]!]!) {
          const name = pairName(names[i]!, va, names[j]!, vb);
          if (!uncovered.has(name)) meaningless.push(name);
        }
  const next = random(seed);
  const rows: Row<D>[] = [];
  while (uncovered.size > 0) {
    let best: (typeof space)[number] | null = null;
    let bestGain = 0;
    let bestTie = 0;
    for (const candidate of space) {
      const gain = candidate.pairs.reduce((n, p) => n + (uncovered.has(p) ? 1 : 0), 0);
      const tie = next();
      const cheaper = best !== null && candidate.cost < best.cost;
      const asCheap = best === null || candidate.cost === best.cost;
      if (gain > bestGain || (gain === bestGain && gain > 0 && (cheaper || (asCheap && tie > bestTie)))) [best, bestGain, bestTie] = [candidate, gain, tie];
    }
    rows.push(best!.row);
    for (const p of best!.pairs) uncovered.delete(p);
  }
  return { rows, pairs, meaningless };
}

/**
 * `count` rows of the space beyond `taken` (the covering array's), drawn at random by the seed:
 * combinations of three values and more, which the pairs meet only by chance. A budget left over
 * buys them; a short one keeps the pairs whole and draws fewer (none at 0).
 */
export function drawnBeyond<D extends Dimensions>(
  dimensions: D,
  valid: (row: Row<D>) => boolean,
  taken: readonly Row<D>[],
  count: number,
  seed: number,
): Row<D>[] {
  const names = Object.keys(dimensions);
  const key = (row: Row<D>) => names.map((name) => row[name]).join('\u0000');
  const seen = new Set(taken.map(key));
  const rest = enumerate(dimensions, valid).filter((row) => !seen.has(key(row)));
  // A stream of its own, so that the draw does not move the array's tie-breaks.
  const next = random(seed ^ 0x5bd1e995);
  const n = Math.max(0, Math.min(count, rest.length));
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(next() * (rest.length - i));
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  return rest.slice(0, n);
}
