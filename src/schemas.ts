import { join } from 'node:path';
import { readFileSync, readdirSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { PACKAGE_ROOT } from './package-root.js';

/** One Ajv instance, every schema of `schemas/` added once by its `$id`, strict mode on. */
const SCHEMA_DIR = join(PACKAGE_ROOT, 'schemas/');
const BASE_ID = 'https://conformance.api-v1/schemas/';

const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
for (const file of readdirSync(SCHEMA_DIR).filter((name) => name.endsWith('.schema.json'))) {
  ajv.addSchema(JSON.parse(readFileSync(SCHEMA_DIR + file, 'utf8')));
}

export type SchemaName =
  'profile' | 'workspace' | 'governance-model' | 'record' | 'envelope' | 'error' | 'error-429' | 'conformance-report' | 'manifest' | 'fleet';

const compiled = new Map<SchemaName, ValidateFunction>();

function validator(name: SchemaName): ValidateFunction {
  let fn = compiled.get(name);
  if (!fn) {
    const found = ajv.getSchema(`${BASE_ID}${name}.schema.json`);
    if (!found) throw new Error(`no schema ${name} in schemas/`);
    fn = found;
    compiled.set(name, fn);
  }
  return fn;
}

/** Validates `data`; returns one readable line per violation, empty when valid. */
export function schemaErrors(name: SchemaName, data: unknown): string[] {
  const fn = validator(name);
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
