/**
 * Which endpoint each entry of the header catalogue (suites/catalogues/request-headers.ts) is sent
 * to. Every run sends the cover: every entry to a list and to a retrieval (a framework answers a
 * header by the kind of route, where it does not for all of them), every endpoint at least once,
 * each entry's endpoints turned by the run's seed, so that runs with other seeds meet other pairs.
 * The rest of the product (every entry on every endpoint) goes where the run has a key pool to
 * carry it (`CheckContext.onPool`): a narrow selection (`--only GEN`) creates no key for it.
 */
export interface HeaderCases<E> {
  readonly cover: readonly HeaderCase<E>[];
  readonly rest: readonly HeaderCase<E>[];
}

export interface HeaderCase<E> {
  readonly entry: E;
  readonly path: string;
}

export function headerCases<E>(
  entries: readonly E[],
  endpoints: { readonly lists: readonly string[]; readonly items: readonly string[] },
  seed: number,
): HeaderCases<E> {
  const cover: HeaderCase<E>[] = [];
  if (entries.length > 0)
    for (const paths of [endpoints.lists, endpoints.items]) {
      const turn = paths.length > 0 ? Math.abs(seed) % paths.length : 0;
      for (let i = 0; i < Math.max(entries.length, paths.length) && paths.length > 0; i++)
        cover.push({ entry: entries[i % entries.length]!, path: paths[(i + turn) % paths.length]! });
    }
  const covered = new Set(cover.map(({ entry, path }) => `${entries.indexOf(entry)} ${path}`));
  const rest = entries.flatMap((entry, e) =>
    [...endpoints.lists, ...endpoints.items].filter((path) => !covered.has(`${e} ${path}`)).map((path) => ({ entry, path })),
  );
  return { cover, rest };
}
