// A method a served path does not support answered 405 with Allow before any 401, as ASP.NET Core's
// endpoint routing does with [Authorize] on the controllers and no fallback policy, as blind variant
// batch 6 wrote it (variants/batches/6/l-method-405-before-challenge.ts, which says where it happens
// and why it conforms): kept in the tolerance matrix, the class it lacked, a check the document does
// not order put before authentication on a documented path (docs/judging.md).
export { default } from './batches/6/l-method-405-before-challenge.js';
