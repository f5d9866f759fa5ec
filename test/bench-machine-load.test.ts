import { existsSync } from 'node:fs';
import { expect, test } from 'vitest';
import { cpuPressure } from '../bench/machine-load.js';
import { sleep } from '../src/sleep.js';

test('the bench says how busy the machine was while it ran, where the kernel tells it', async () => {
  const load = cpuPressure();
  await sleep(20);
  const line = load.end();
  if (existsSync('/proc/pressure/cpu')) expect(line).toMatch(/^CPU pressure (\d|[1-9]\d|100) % \(/);
  else expect(line).toBeNull();
});
