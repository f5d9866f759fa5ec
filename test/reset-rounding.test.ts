import { test } from 'vitest';
import { variantNamed } from '../variants/index.js';
import { expectOneKeyRunWithout429 } from './support/one-key-run.js';

// X-RateLimit-Reset names a whole second, rounded either way (variants/rate-reset-rounded-down.ts).
// A run of one key waits for its window again and again: read as the window's end, a Reset rounded
// down sent the first request of each new window up to a second early, and the next one met a 429
// (10 in a --read-only run). The pacer waits for the second after where an answer shows the window
// still counting (src/pacing/pacer.ts); the tolerance matrix runs the variant with a key pool.

test('a one-key run against a server whose Reset is rounded down meets no 429', () =>
  expectOneKeyRunWithout429({ modify: variantNamed('rate-reset-rounded-down').modify! }));
