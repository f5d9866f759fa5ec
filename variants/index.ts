import { discover } from '../mutants/discover.js';
import type { Variant } from './variant.js';

// Every variant is found by its file, as mutants are: a file of this folder (its name is the
// variant's) whose default export is `defineVariant(...)`. Adding one is adding its file.

/** A variant's name: its file's, without the extension (`ids-uuid`). */
export type VariantName = string;

/** Every conformant variant, by the name of its file, in the order of their names; not this index, the definition, the open points. */
export const VARIANTS: Readonly<Record<VariantName, Variant>> = await discover<Variant>(import.meta.url, ['index', 'variant', 'open-points'], (variant) =>
  variant?.openPoint ? null : 'no variant: its default export must be defineVariant({ openPoint, ... })',
);

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
