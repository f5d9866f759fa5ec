import type { Duplex } from 'node:stream';

/**
 * An interim `100 (Continue)` the server sends unasked is dropped before undici reads it.
 *
 * RFC 9110 §15.2: "A client MUST be able to parse one or more 1xx responses received prior to a
 * final response, even if the client does not expect one." Servers do send it unasked: IIS and
 * ASP.NET answered every HTTP/1.1 POST with one, and a proxy may relay a backend's. undici's HTTP/1.1
 * parser reads 102 and 103 and goes on, but destroys the connection on a 100 ("bad response"),
 * since it never sends `Expect: 100-continue`; the suite then took a conformant server's every
 * answer for a reset, and the run was inconclusive.
 *
 * undici reads a connection with `socket.read()` and writes each request's head as one string that
 * begins with its request line (one request at a time on a connection: its pipelining is 1). So
 * the bytes that follow a request line's write begin a response; while they are a `100` head it is
 * skipped, and what follows is undici's, untouched, until the next request.
 */

const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ \S+ HTTP\/1\.1\r\n/;
/** `HTTP/1.x 1xx`, and the space or CR after the code: what an interim head begins with (`#` a digit). */
const HEAD_START = 'HTTP/1.? 1##';
const HEAD_PREFIX_LENGTH = HEAD_START.length + 1;
/** A head longer than this is not skipped: undici's own limit on a head is 16 KiB, and it judges the rest. */
const MOST_HEAD_BYTES = 8 * 1024;
const HEAD_END = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);

/**
 * What begins a response: a whole `100` head to skip (`continue`), another interim head undici
 * reads itself and after which the response still begins (`interim`: 102, 103), a head still
 * arriving (`more`), or anything else (`final`: the answer, a 101, bytes that are no head).
 */
type Head = { readonly kind: 'more' } | { readonly kind: 'final' } | { readonly kind: 'continue' | 'interim'; readonly length: number };

export function interimHead(bytes: Buffer): Head {
  const seen = Math.min(bytes.length, HEAD_PREFIX_LENGTH);
  for (let i = 0; i < seen; i++) {
    const byte = bytes[i]!;
    const wanted = HEAD_START[i];
    const matches =
      wanted === undefined
        ? byte === 0x20 || byte === 0x0d
        : wanted === '?'
          ? byte === 0x30 || byte === 0x31
          : wanted === '#'
            ? byte >= 0x30 && byte <= 0x39
            : byte === wanted.charCodeAt(0);
    if (!matches) return { kind: 'final' };
  }
  if (seen < HEAD_PREFIX_LENGTH) return { kind: 'more' };
  const code = bytes.subarray(HEAD_START.length - 3, HEAD_START.length).toString('latin1');
  if (code === '101') return { kind: 'final' };
  const end = bytes.indexOf(HEAD_END);
  if (end >= 0) return { kind: code === '100' ? 'continue' : 'interim', length: end + HEAD_END.length };
  return bytes.length > MOST_HEAD_BYTES ? { kind: 'final' } : { kind: 'more' };
}

function beginsRequest(chunk: unknown): boolean {
  const start = typeof chunk === 'string' ? chunk.slice(0, 256) : Buffer.isBuffer(chunk) ? chunk.subarray(0, 256).toString('latin1') : '';
  return REQUEST_LINE.test(start);
}

/**
 * Has `socket` drop every unasked `100` head that begins a response, for undici's HTTP/1.1 client,
 * which reads whole chunks (`read()`, no size): a read at a response's start returns what is there
 * past the skipped heads. Returns the socket.
 */
export function skipInterimContinue<S extends Duplex>(socket: S): S {
  const read = socket.read.bind(socket);
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
  let atResponseStart = false;
  let held: Buffer = EMPTY;
  socket.write = ((...args: unknown[]) => {
    if (beginsRequest(args[0])) atResponseStart = true;
    return write(...args);
  }) as S['write'];
  socket.read = ((size?: number) => {
    if (!atResponseStart && held.length === 0) return read(size);
    for (;;) {
      if (atResponseStart) {
        const head = interimHead(held);
        if (head.kind === 'continue') {
          held = held.subarray(head.length);
          continue;
        }
        if (head.kind === 'interim') {
          // undici's to read; the response still begins after it.
          const out = held.subarray(0, head.length);
          held = held.subarray(head.length);
          return out;
        }
        if (head.kind === 'final') atResponseStart = false;
      }
      if (!atResponseStart) {
        const out = held;
        held = EMPTY;
        if (out.length > 0) return out;
        return read();
      }
      const chunk = read() as Buffer | null;
      if (chunk === null) return null;
      held = held.length === 0 ? chunk : Buffer.concat([held, chunk]);
    }
  }) as S['read'];
  return socket;
}
