import { expect, test } from 'vitest';
import { windowsCrossed, type ByBudget } from '../src/run/phase-windows.js';

// A run's phases run one after another (src/check/suite-order.ts): what one budget carries in a
// later phase waits for the earlier phases' windows, whatever budget those drew on.

const ceilings = { main: 9, other: 10 };

/** The window ends the phases cross, each phase written [main account's requests, second account's]. */
function crossed(phases: readonly (readonly [number, number])[], room: ByBudget = ceilings): number {
  return windowsCrossed(
    phases.map(([main, other]) => ({ main, other })),
    ceilings,
    room,
  );
}

test('one phase on one budget crosses as many window ends as its requests beyond the room, over the ceiling', () => {
  expect(crossed([[9, 0]])).toBe(0);
  expect(crossed([[10, 0]])).toBe(1);
  expect(crossed([[126, 0]], { ...ceilings, main: 4 })).toBe(Math.ceil((126 - 4) / 9));
  expect(crossed([])).toBe(0);
  // A window overdrawn by requests in flight: what is still to send waits, nothing to send does not.
  expect(crossed([[1, 0]], { ...ceilings, main: -2 })).toBe(1);
  expect(crossed([[0, 0]], { ...ceilings, main: -2 })).toBe(0);
});

test('the budgets of one phase run beside each other: the busiest one sets its windows', () => {
  expect(crossed([[90, 40]])).toBe(9);
});

test("a later phase's budget takes windows after the earlier phase's, though the budget is another", () => {
  // The account lane on the configured key, then the pairs on the second account's key (the
  // remaining-time run at 10 requests a 4-s window): side by side they would fit in the main
  // key's 14 window ends; one after the other, the pairs' 29 take one more.
  const room = { ...ceilings, main: 4 };
  expect(crossed([[126, 29]], room)).toBe(14);
  expect(
    crossed(
      [
        [115, 0],
        [11, 29],
      ],
      room,
    ),
  ).toBe(15);
});

test('a phase begins in the window the one before it ended in, with what each budget left there', () => {
  // The first phase leaves 5 of the main key's window: a second phase of 5 fits in it, of 6 does not.
  const after = (main: number, other: number, next: readonly [number, number]) => crossed([[main, other], next]);
  expect(after(13, 0, [5, 0])).toBe(1);
  expect(after(13, 0, [6, 0])).toBe(2);
  // A budget that ended in an earlier window has the whole of the later one.
  expect(after(19, 10, [0, 10])).toBe(2);
  expect(after(19, 10, [0, 11])).toBe(3);
});

test("a phase with work for the main account, where the one before spent that budget's window, begins in the next window, its other budgets with it", () => {
  // The remaining-time run at 10 requests a 4-s window: the errors' checks spend the configured key's
  // window to its ceiling; the pairs, which read with it first, begin a window later, and their 29
  // on the second account's key take three windows from there, not from the window it left unused.
  expect(
    crossed([
      [9, 0],
      [14, 29],
    ]),
  ).toBe(3);
  // With room left on the configured key, the next phase begins where the one before ended.
  expect(
    crossed([
      [8, 0],
      [14, 29],
    ]),
  ).toBe(2);
  // A phase with no work for the main account does not wait for its window.
  expect(
    crossed([
      [9, 0],
      [0, 29],
    ]),
  ).toBe(2);
});

test('a budget without a ceiling never makes a window', () => {
  const open = { ...ceilings, other: Number.POSITIVE_INFINITY };
  expect(windowsCrossed([{ main: 0, other: 10_000 }], open, open)).toBe(0);
});
