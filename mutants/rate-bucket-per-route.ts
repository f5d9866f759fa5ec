import { defineMutant } from './mutant.js';

/** A gateway that keeps one counter per key and route (a rate-limit zone per location). */
export default defineMutant({
  description: "counts a key's requests per path: a key that spreads its requests over several routes gets the ceiling on each",
  breaks: { 'RATE-3': 'fail' },
  // A budget per route: sequential requests of a key on other routes leave a route's Remaining where it was (seen once in five runs).
  collateral: ['RATE-8'],
  modify: ({ behaviour }) => {
    behaviour.rateBucket = (key, path) => `key:${key.id} ${path}`;
  },
});
