// A gateway's response cache behind its key check and rate limiter, one partition a key, whose hits
// replay the stored `Date` with an `Age` (Kong's proxy-cache), as blind variant batch 7 wrote it
// (variants/batches/7/n-gateway-cache-per-key.ts, which says where it happens and why it conforms):
// kept in the tolerance matrix, the class it lacked, a `Date` up to 30 s old on answers whose rate
// headers are fresh (docs/judging.md).
export { default } from './batches/7/n-gateway-cache-per-key.js';
