import { createServer, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { listen } from '../hostile/server.js';

/** What passed through the proxy: a CONNECT tunnel (https) or an absolute-form request (http). */
export interface Proxied {
  readonly kind: 'connect' | 'absolute-form';
  /** host:port of a tunnel, or the absolute URL of a request. */
  readonly target: string;
}

/** A small forward proxy on 127.0.0.1, as a corporate network puts in front of the internet. */
export async function startForwardProxy(): Promise<{ url: string; seen: Proxied[]; upstreamPorts: Set<number>; close(): Promise<void> }> {
  const seen: Proxied[] = [];
  /** Local ports of the proxy's connections to targets: a target sees requests from these. */
  const upstreamPorts = new Set<number>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    seen.push({ kind: 'absolute-form', target: req.url ?? '' });
    const out = request(req.url ?? '', { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('socket', (socket) => socket.on('connect', () => upstreamPorts.add(socket.localPort!)));
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    seen.push({ kind: 'connect', target: req.url ?? '' });
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host!, () => {
      upstreamPorts.add(upstream.localPort!);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  const url = await listen(server, 'http');
  return {
    url,
    seen,
    upstreamPorts,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
