import type { HttpResponse, Outgoing } from './request.js';

/** Sends one prepared request and answers its response, or throws a `TransportFailure`. */
export type Send = (request: Outgoing) => Promise<HttpResponse>;

/**
 * One concern of the client (pacing, recording, retries…) wrapped around the next: the way
 * undici composes its interceptors.
 */
export type Layer = (next: Send) => Send;

/** The layers around the transport, the first outermost. */
export function compose(layers: readonly Layer[], transport: Send): Send {
  return layers.reduceRight<Send>((next, layer) => layer(next), transport);
}
