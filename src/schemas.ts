import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ErrorObject } from 'ajv';
import { PACKAGE_ROOT } from './package-root.js';

/**
 * Every schema of `schemas/`, as validators compiled ahead of time: Ajv's standalone code, which
 * the build (bin/compiled.mjs) writes to `dist/js/validators.cjs` by `standaloneValidators`.
 * Loading Ajv and compiling the schemas costs about half a second in each process of a run (the
 * main process and the suites' worker); the built module loads in milliseconds. Where it is
 * missing, or was made from other schemas (a script run through tsx since a schema changed), the
 * schemas are compiled in the process.
 */
const SCHEMA_DIR = join(PACKAGE_ROOT, 'schemas/');
const BASE_ID = 'https://conformance.api-v1/schemas/';
const BUILT = join(PACKAGE_ROOT, 'dist', 'js', 'validators.cjs');
const require = createRequire(import.meta.url);

export type SchemaName =
  'profile' | 'workspace' | 'governance-model' | 'record' | 'envelope' | 'error' | 'error-429' | 'conformance-report' | 'manifest' | 'fleet';

const SCHEMA_NAMES: readonly SchemaName[] = [
  'profile',
  'workspace',
  'governance-model',
  'record',
  'envelope',
  'error',
  'error-429',
  'conformance-report',
  'manifest',
  'fleet',
];

interface Validator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

let validators: Record<SchemaName, Validator> | undefined;

/** Validates `data`; returns one readable line per violation, empty when valid. */
export function schemaErrors(name: SchemaName, data: unknown): string[] {
  validators ??= loadValidators();
  const fn = validators[name];
  if (fn(data)) return [];
  return (fn.errors ?? []).map(describe);
}

/** The module of every schema's validator (CommonJS), with the stamp of the schemas it was made from. */
export function standaloneValidators(): string {
  const texts = schemaTexts();
  // A CommonJS module: its `default` is the function.
  const standaloneCode = (require('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js')).default;
  const ids = Object.fromEntries(SCHEMA_NAMES.map((name) => [exportName(name), `${BASE_ID}${name}.schema.json`]));
  return `${standaloneCode(compiler(texts), ids)}\nexports.schemasStamp = ${JSON.stringify(stampOf(texts))};\n`;
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? '(root)' : error.instancePath;
  const extra =
    error.keyword === 'additionalProperties'
      ? ` (${String((error.params as { additionalProperty: string }).additionalProperty)})`
      : error.keyword === 'enum'
        ? ` (${JSON.stringify((error.params as { allowedValues: unknown[] }).allowedValues)})`
        : '';
  return `${where} ${error.message ?? 'is invalid'}${extra}`;
}

function loadValidators(): Record<SchemaName, Validator> {
  const texts = schemaTexts();
  try {
    const built = require(BUILT) as Record<string, unknown>;
    if (built.schemasStamp === stampOf(texts)) return byName(built as Record<string, Validator>);
  } catch {
    // Not built: below.
  }
  const ajv = compiler(texts);
  return Object.fromEntries(SCHEMA_NAMES.map((name) => [name, ajv.getSchema(`${BASE_ID}${name}.schema.json`)! as Validator])) as Record<SchemaName, Validator>;
}

function schemaTexts(): string[] {
  return readdirSync(SCHEMA_DIR)
    .filter((name) => name.endsWith('.schema.json'))
    .sort()
    .map((name) => readFileSync(SCHEMA_DIR + name, 'utf8'));
}

function stampOf(texts: readonly string[]): string {
  return createHash('sha256').update(texts.join('\0')).digest('hex').slice(0, 16);
}

/** A module's exports are identifiers: `governance-model` is exported as `governance_model`. */
function exportName(name: SchemaName): string {
  return name.replaceAll('-', '_');
}

function byName(module: Record<string, Validator>): Record<SchemaName, Validator> {
  return Object.fromEntries(
    SCHEMA_NAMES.map((name) => {
      const fn = module[exportName(name)];
      if (typeof fn !== 'function') throw new Error(`the compiled validators lack ${name}`);
      return [name, fn];
    }),
  ) as Record<SchemaName, Validator>;
}

/** One Ajv instance, every schema added by its `$id`, strict mode on. */
function compiler(texts: readonly string[]) {
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, code: { source: true } });
  for (const text of texts) ajv.addSchema(JSON.parse(text));
  for (const name of SCHEMA_NAMES) if (!ajv.getSchema(`${BASE_ID}${name}.schema.json`)) throw new Error(`no schema ${name} in schemas/`);
  return ajv;
}
