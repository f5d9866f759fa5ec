// The X-RateLimit-* headers on successes and 429s alone, as nginx's add_header without `always`
// writes them, kept as it was written blind (variants/batches/2): RATE-1 warned on it until it read
// "responses generally" both ways (src/judge/run-wide.ts).
export { default } from './batches/2/c-headers-on-success-and-429.js';
