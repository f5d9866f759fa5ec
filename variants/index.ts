import { BEHAVIOUR_VARIANTS } from './registry/behaviour.js';
import { FACT_VARIANTS } from './registry/facts.js';
import { LIST_VARIANTS } from './registry/lists.js';
import type { Variant } from './variant.js';

/** Every conformant variant, by the name of its file; each group keeps its own list in `registry/`. */
export const VARIANTS = {
  ...FACT_VARIANTS,
  ...LIST_VARIANTS,
  ...BEHAVIOUR_VARIANTS,
} as const satisfies Record<string, Variant>;

export type VariantName = keyof typeof VARIANTS;

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
