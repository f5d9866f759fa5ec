import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Exchange } from '../http/exchange.js';
import type { Broker } from './broker.js';
import type { LedgerEntry } from './ledger.js';

/** Where workers find the broker: a loopback URL and a token only this run knows. */
export interface BrokerAddress {
  readonly url: string;
  readonly token: string;
}

export interface RunningBroker {
  readonly address: BrokerAddress;
  close(): Promise<void>;
}

type Handler = (body: any) => Promise<unknown> | unknown;

/** Serves the broker to the workers over loopback HTTP. */
export async function serveBroker(broker: Broker): Promise<RunningBroker> {
  const token = randomBytes(16).toString('hex');
  const routes: Record<string, Handler> = {
    'POST /acquire': async ({ bucket, anonymous }: { bucket: string; anonymous: boolean }) => {
      await broker.acquire(bucket, anonymous);
      return {};
    },
    'POST /reserve': async ({ bucket, anonymous, count }: { bucket: string; anonymous: boolean; count: number }) => {
      await broker.reserve(bucket, anonymous, count);
      return {};
    },
    'POST /fresh': async ({ bucket, anonymous }: { bucket: string; anonymous: boolean }) => {
      await broker.untilFresh(bucket, anonymous);
      return {};
    },
    'POST /record': ({ exchange, body }: { exchange: Exchange; body: string }) => ({ seq: broker.record(exchange, body) }),
    'POST /secret': ({ value }: { value: string }) => {
      broker.addRevealedSecret(value);
      return {};
    },
    'GET /secrets': () => ({ secrets: broker.secrets() }),
    'GET /log': () => ({ exchanges: broker.log() }),
    'POST /ledger': (entry: LedgerEntry) => {
      broker.addLedgerEntry(entry);
      return {};
    },
    'GET /ledger': () => ({ entries: broker.ledger.entries }),
  };
  const server: Server = createServer(async (req, res) => {
    if (req.headers['x-broker-token'] !== token) {
      res.writeHead(403).end();
      return;
    }
    const route = routes[`${req.method} ${req.url}`];
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    try {
      const raw = await readBody(req);
      const result = await route(raw ? JSON.parse(raw) : {});
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
    } catch (error) {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: String(error) }));
    }
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: { url: `http://127.0.0.1:${port}`, token },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
