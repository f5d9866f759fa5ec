import type { Exchange } from '../exchange.js';
import { TransportFailure } from '../failures.js';
import type { Layer } from '../layer.js';

/** Adds a finished exchange to a log; `body` is the complete response body (empty after a failure). */
export type Record = (exchange: Exchange, body: Uint8Array) => Promise<void>;

/** Hands every finished exchange, a failed one included, to `record` before the caller sees it. */
export function recording(record: Record): Layer {
  return (next) => async (request) => {
    try {
      const response = await next(request);
      await record(response.exchange, response.raw);
      return response;
    } catch (error) {
      if (error instanceof TransportFailure) await record(error.exchange, NO_BODY);
      throw error;
    }
  };
}

const NO_BODY = new Uint8Array(0);
