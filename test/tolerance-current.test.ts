import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { renderTolerance, TOLERANCE_FILE } from '../scripts/tolerance.js';

test('docs/tolerance.md is current (regenerate with npm run tolerance)', () => {
  expect(readFileSync(TOLERANCE_FILE, 'utf8')).toBe(renderTolerance());
});
