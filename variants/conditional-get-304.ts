// The tolerance matrix's one target that answers a condition with 304 (a weak ETag on every 200, as
// Rails' Rack::ConditionalGet does), kept as it was written blind: variants/batches/1.
export { default } from './batches/1/a-etag-conditional-get.js';
