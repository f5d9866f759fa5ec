import { expect, test } from 'vitest';
import { machinePace } from '../bench/machine-pace.js';

test("the bench measures the machine's pace on a fixed piece of CPU work", () => {
  const pace = machinePace();
  expect(pace).toBeGreaterThan(0);
  expect(pace).toBeLessThan(5_000);
});
