// An empty POST body read as `{}`, as Express's body-parser, koa-bodyparser and Next.js read it, so
// that a write without a body is refused for its missing fields (400 missing_param), as blind variant
// batch 9 wrote it (variants/batches/9/q-body-parser-empty-body-object.ts, which says where it happens
// and why it conforms): kept in the tolerance matrix, since GEN-3's empty body reaches it and GEN-4
// must not take an empty body for a malformed one.
export { default } from './batches/9/q-body-parser-empty-body-object.js';
