import type { Exchange, TransportFailureKind } from './exchange.js';

/** A request `--read-only` does not send; the check that made it is left out (not_applicable 'read-only'). */
export class ReadOnlyRefusal extends Error {
  override readonly name = 'ReadOnlyRefusal';
}

/** The request got no complete response. The target's fault, so a failed check, never a crash. */
export class TransportFailure extends Error {
  override readonly name = 'TransportFailure';
  constructor(
    readonly kind: TransportFailureKind,
    message: string,
    readonly exchange: Exchange,
  ) {
    super(message);
  }
}
