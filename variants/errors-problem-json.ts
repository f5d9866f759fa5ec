// Every error, 401s and 429s included, labelled `application/problem+json; charset=utf-8` over the
// document's envelope (ASP.NET Core's problem details pipeline), as blind variant batch 7 wrote it
// (variants/batches/7/m-aspnet-problem-json-errors.ts, which says where it happens and why it
// conforms): kept in the tolerance matrix, the class it lacked, errors under a media type of their
// own (docs/judging.md).
export { default } from './batches/7/m-aspnet-problem-json-errors.js';
