import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// How mutants and variants are found: by their files. Each file of a folder (but those named) is
// one, by its name without the extension, and its default export is the definition.

const nameOf = (file: string) => file.replace(/\.(ts|js)$/, '');

/**
 * The default exports of the TypeScript (or compiled) files of the folder of `moduleUrl`, by file
 * name, in the order of the names; `not` names the files that are none, and `check` says why a
 * default export is none (null when it is one).
 */
export async function discover<T>(
  moduleUrl: string,
  not: readonly string[],
  check: (value: T | undefined) => string | null,
): Promise<Readonly<Record<string, T>>> {
  const folder = dirname(fileURLToPath(moduleUrl));
  const files = readdirSync(folder)
    .filter((file) => /\.(ts|js)$/.test(file) && !file.endsWith('.d.ts') && !not.includes(nameOf(file)))
    .sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : 1));
  const found: Record<string, T> = {};
  for (const file of files) {
    const value = ((await import(pathToFileURL(join(folder, file)).href)) as { default?: T }).default;
    const problem = check(value);
    if (problem !== null) throw new Error(`${join(folder, file)}: ${problem}`);
    found[nameOf(file)] = value!;
  }
  return found;
}
