import { expect, test } from 'vitest';
// @ts-expect-error: a plain module preloaded into the coverage run, without types of its own.
import { bodyClasses } from '../scripts/support/exchange-tap.mjs';
import { VOCABULARY } from '../src/clauses/dimensions.js';

// The coverage table's `bodies` column is what the tap classes each request body as: its label,
// whether a JSON label carries a JSON object, and its size, in the vocabulary's words.
const classes = bodyClasses as (headers: Record<string, string>, body: string | undefined) => string[];

test('the exchange tap classes a request body by its label, its shape and its size', () => {
  const json = { 'content-type': 'application/json' };
  expect(classes({}, undefined)).toEqual([]);
  expect(classes(json, '{"name":"x"}')).toEqual(['JSON object']);
  expect(classes({ 'content-type': 'application/merge-patch+json; charset=utf-8' }, '{}')).toEqual(['JSON object']);
  for (const raw of ['[{"name":"x"}]', '"x"', 'null', '{"name": "x', 'name=x', '']) expect(classes(json, raw)).toEqual(['not a JSON object']);
  expect(classes(json, undefined)).toEqual(['not a JSON object']);
  expect(classes({}, '{"name":"x"}')).toEqual(['no Content-Type']);
  expect(classes({ 'content-type': 'text/plain' }, '{"name":"x"}')).toEqual(['other Content-Type']);
  const large = JSON.stringify({ description: 'x'.repeat(100 * 1024) });
  expect(classes(json, large)).toEqual(['JSON object', 'over 100 KiB']);
  expect(classes(json, 'x'.repeat(100 * 1024))).toEqual(['not a JSON object']);
});

test("every class the exchange tap writes is one of the vocabulary's", () => {
  const written = [
    classes({ 'content-type': 'application/json' }, JSON.stringify({ a: 'x'.repeat(200 * 1024) })),
    classes({ 'content-type': 'application/json' }, '[]'),
    classes({}, 'x'),
    classes({ 'content-type': 'text/plain' }, 'x'),
  ].flat();
  expect(new Set(written)).toEqual(new Set(VOCABULARY.bodies));
});
