import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { validate } from 'ctrf';

const require = createRequire(import.meta.url);

/** `ctrf.json` of a report folder against CTRF's schema, by the `ctrf` package: one line a problem. */
export function ctrfProblems(dir: string): string[] {
  const result = validate(JSON.parse(readFileSync(join(dir, 'ctrf.json'), 'utf8')));
  return result.errors.map((e) => `${e.path ?? ''} ${e.message}`);
}

let harValidator: ((data: unknown) => boolean) & { errors?: unknown[] | null } = null as never;

/** `exchanges.har` of a report folder against the HAR 1.2 JSON Schema (`har-schema`): one line a problem. */
export function harProblems(dir: string): string[] {
  if (!harValidator) {
    // har-schema is draft-06 and uses keywords of its own (`optional`, `min`): not strict.
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
    for (const schema of Object.values(require('har-schema') as Record<string, object>)) ajv.addSchema(schema);
    harValidator = ajv.getSchema('har.json#')!;
  }
  return harValidator(JSON.parse(readFileSync(join(dir, 'exchanges.har'), 'utf8'))) ? [] : (harValidator.errors ?? []).map((e) => JSON.stringify(e));
}
