import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ErrorObject } from 'ajv';
import { PACKAGE_ROOT } from './package-root.js';

/**
 * Every schema of `schemas/`, as validators compiled ahead of time: Ajv's standalone code,
 * generated when the schemas change and kept in `node_modules/.cache/`. Loading Ajv and compiling
 * the schemas costs about half a second in each process of a run (the main process and the
 * suites' worker); the generated module loads in milliseconds. Where the cache cannot be written,
 * the schemas are compiled in the process, as before.
 */
const SCHEMA_DIR = join(PACKAGE_ROOT, 'schemas/');
const BASE_ID = 'https://conformance.api-v1/schemas/';
const CACHE_DIR = join(PACKAGE_ROOT, 'node_modules', '.cache', 'conformance-validators');

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

const validators: Record<SchemaName, Validator> = await loadValidators();

/** Validates `data`; returns one readable line per violation, empty when valid. */
export function schemaErrors(name: SchemaName, data: unknown): string[] {
  const fn = validators[name];
  if (fn(data)) return [];
  return (fn.errors ?? []).map(describe);
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

async function loadValidators(): Promise<Record<SchemaName, Validator>> {
  const texts = readdirSync(SCHEMA_DIR)
    .filter((name) => name.endsWith('.schema.json'))
    .sort()
    .map((name) => readFileSync(SCHEMA_DIR + name, 'utf8'));
  const hash = createHash('sha256').update(texts.join('\0')).digest('hex').slice(0, 16);
  const file = join(CACHE_DIR, `${hash}.mjs`);
  try {
    return byName(await import(pathToFileURL(file).href));
  } catch {
    // Not generated yet for these schemas: below.
  }
  const ajv = await compiler(texts);
  try {
    // A CommonJS module: its default export is module.exports, whose `default` is the function.
    const standaloneCode = (await import('ajv/dist/standalone/index.js')).default.default;
    const ids = Object.fromEntries(SCHEMA_NAMES.map((name) => [exportName(name), `${BASE_ID}${name}.schema.json`]));
    // Ajv's module form still loads its runtime helpers (string length, deep equality) with require.
    const preamble = "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n";
    writeAtomically(file, preamble + standaloneCode(ajv, ids));
    return byName(await import(pathToFileURL(file).href));
  } catch {
    return Object.fromEntries(SCHEMA_NAMES.map((name) => [name, ajv.getSchema(`${BASE_ID}${name}.schema.json`)! as Validator])) as Record<
      SchemaName,
      Validator
    >;
  }
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
async function compiler(texts: readonly string[]) {
  const { Ajv2020 } = await import('ajv/dist/2020.js');
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, code: { source: true, esm: true } });
  for (const text of texts) ajv.addSchema(JSON.parse(text));
  for (const name of SCHEMA_NAMES) if (!ajv.getSchema(`${BASE_ID}${name}.schema.json`)) throw new Error(`no schema ${name} in schemas/`);
  return ajv;
}

/** Processes that start together each see a whole module or none. */
function writeAtomically(file: string, text: string): void {
  mkdirSync(CACHE_DIR, { recursive: true });
  const scratch = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(scratch, text);
    renameSync(scratch, file);
  } finally {
    rmSync(scratch, { force: true });
  }
}
