// Spring MVC's content negotiation: a 406 to an `Accept` that allows no JSON type, the `+json` type
// asked for as the label, `Vary: Accept`, as blind variant batch 7 wrote it
// (variants/batches/7/m-spring-mvc-accept-negotiation.ts, which says where it happens and why it
// conforms): kept in the tolerance matrix, the class it lacked, an answer chosen by the request's
// `Accept` (docs/judging.md).
export { default } from './batches/7/m-spring-mvc-accept-negotiation.js';
