import { expect, test } from 'vitest';
import { closeWithin } from '../src/run/close-bound.js';

// A run whose reports are written must end, whatever of its own machinery (vitest, the broker's
// channel, the connections) is slow to close: the bound is on the machine's time, injected here.

/** A wait the test ends by hand: time passes only when the test says so. */
function handWait() {
  let pass: () => void = () => undefined;
  const waits: number[] = [];
  const wait = (ms: number) => {
    waits.push(ms);
    return new Promise<void>((resolve) => (pass = resolve));
  };
  return { wait, waits, pass: () => pass() };
}

test('a close that ends within the bound is waited for: true, and the bound never had to pass', async () => {
  const clock = handWait();
  let closed = false;
  const result = await closeWithin(
    async () => {
      await Promise.resolve();
      closed = true;
    },
    10_000,
    clock.wait,
  );
  expect(result).toBe(true);
  expect(closed).toBe(true);
  expect(clock.waits).toEqual([10_000]);
});

test('a close that never ends is left behind once the bound passes: false, and the run goes on to exit', async () => {
  const clock = handWait();
  const closing = closeWithin(() => new Promise<void>(() => undefined), 10_000, clock.wait);
  clock.pass();
  expect(await closing).toBe(false);
});

test('a close that fails is not hidden by the bound: its error comes through', async () => {
  const clock = handWait();
  await expect(closeWithin(() => Promise.reject(new Error('pool would not end')), 10_000, clock.wait)).rejects.toThrow('pool would not end');
});
