import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Variant } from './variant.js';

// Every variant is found by its file, as mutants are: a file of this folder (its name is the
// variant's) whose default export is `defineVariant(...)`. Adding one is adding its file.

/** Files of this folder that are no variant: this index, the definition, the open points. */
const NOT_VARIANTS = new Set(['index', 'variant', 'open-points']);

/** A variant's name: its file's, without the extension (`ids-uuid`). */
export type VariantName = string;

const nameOf = (file: string) => file.replace(/\.(ts|js)$/, '');

async function discover(): Promise<Readonly<Record<VariantName, Variant>>> {
  const folder = dirname(fileURLToPath(import.meta.url));
  const files = readdirSync(folder)
    .filter((file) => /\.(ts|js)$/.test(file) && !file.endsWith('.d.ts') && !NOT_VARIANTS.has(nameOf(file)))
    .sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : 1));
  const found: Record<VariantName, Variant> = {};
  for (const file of files) {
    const variant = ((await import(pathToFileURL(join(folder, file)).href)) as { default?: Variant }).default;
    if (!variant || !variant.openPoint) throw new Error(`variants/${file} is no variant: its default export must be defineVariant({ openPoint, ... })`);
    found[nameOf(file)] = variant;
  }
  return found;
}

/** Every conformant variant, by the name of its file, in the order of their names. */
export const VARIANTS: Readonly<Record<VariantName, Variant>> = await discover();

/** The variant of this name; throws for a name no file of `variants/` has. */
export function variantNamed(name: VariantName): Variant {
  const variant = VARIANTS[name];
  if (!variant) throw new Error(`no variant ${name}: no file variants/${name}.ts`);
  return variant;
}

/**
 * Variants also run under the document-only profile (no open fact declared): the run may be
 * incomplete there, never non-conformant.
 */
export const DOCUMENT_ONLY_SAMPLE: readonly VariantName[] = [
  'auth-401-oauth-shape',
  'auth-401-flat-shape',
  'key-prefix-dash',
  'key-create-200',
  'key-delete-202',
  'key-paths-unconventional-undeclared',
  'submission-created-empty',
  'ids-digits',
  'extra-members-errors',
  'empty-workspace-param-mismatch',
  'unknown-query-params-422',
];
