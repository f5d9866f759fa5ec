import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { parseProfile, type Profile } from '../src/profile/profile.js';
import { authenticate } from './auth.js';
import { useStampedClock, type ReferenceClock } from './clock.js';
import { faithfulBehaviour, type Behaviour } from './behaviour.js';
import { seedAccount } from './data.js';
import { sendError } from './errors.js';
import { RateLimiter } from './rate-limit.js';
import { keyRoutes } from './routes/keys.js';
import { resourceRoutes } from './routes/resources.js';
import { submissionRoutes } from './routes/submissions.js';
import type { ReferenceState } from './state.js';
import { Store } from './store.js';
import { REFERENCE_PROFILE_FILE } from '../src/profile/shipped.js';

export { REFERENCE_PROFILE_FILE };

export function referenceProfile(file = REFERENCE_PROFILE_FILE): Profile {
  return parseProfile(JSON.parse(readFileSync(file, 'utf8')), file);
}

/** A change to the reference that a mutant makes before the server starts. */
export type Modification = (reference: ReferenceApp) => void;

export interface ReferenceOptions {
  /** The profile to serve; its paths, field names and limits shape the API. @default profiles/reference.json */
  readonly profile?: Profile;
  /** Overrides the profile's window, so that a local run can use a short one. */
  readonly windowSeconds?: number | undefined;
  /** Records of the main account. @default REFERENCE_RECORDS */
  readonly records?: number | undefined;
  /** Seed of the generated data. @default 20261122 */
  readonly seed?: number;
  /** @default 0 (any free port) */
  readonly port?: number | undefined;
  /** @default '127.0.0.1' */
  readonly host?: string;
  readonly modify?: Modification;
  /** Where the server's time comes from (`clock.ts`). @default 'real' */
  readonly clock?: ReferenceClock;
  /** The machine's clock, in ms since the epoch, that either reads (the tests set it apart from the run's). @default Date.now */
  readonly machineClock?: () => number;
}

export interface ReferenceApp {
  readonly app: FastifyInstance;
  readonly state: ReferenceState;
  readonly behaviour: Behaviour;
}

export interface RunningReference {
  readonly url: string;
  readonly keys: { readonly main: string; readonly other: string };
  /** The profile the server honours, window included. */
  readonly profile: Profile;
  close(): Promise<void>;
}

/** Every route's pattern, to tell an unknown path (404) from an unsupported method (405). */
interface KnownRoute {
  readonly pattern: RegExp;
  readonly method: string;
}

/** The compiler factory of a server whose routes declare no schema: asked for one, it says so. */
function noRouteSchemas(): never {
  throw new Error('the reference declares no route schemas: a route that needs one validates its input itself');
}

/**
 * Records of the main account unless told otherwise: more than the default page of 100 and past a
 * page boundary at every limit the walks use (10000, 100, 7, 1), which is all any check needs of
 * the collection's size; every mutant is caught at this size (the kill matrix). The walk at limit 1
 * reads every record, so each record more is a request more on the run's longest chain: 250 made a
 * local run some 150 requests and a tenth of a second longer for no clause.
 */
export const REFERENCE_RECORDS = 120;

export function buildReference(options: ReferenceOptions = {}): { reference: ReferenceApp; keys: RunningReference['keys'] } {
  const base = options.profile ?? referenceProfile();
  const profile: Profile = options.windowSeconds ? { ...base, limits: { ...base.limits, windowSeconds: options.windowSeconds } } : base;
  const seed = options.seed ?? 20261122;

  // Long ids must reach the routes (404), not Fastify's own 414 page.
  const app = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    exposeHeadRoutes: true,
    routerOptions: { maxParamLength: 8192 },
    // The routes declare no schemas (each validates its own input, in the API's own words): without
    // these, Fastify loads Ajv and its serializer compiler anyway, some 40 ms of every run's start.
    schemaController: { compilersFactory: { buildValidator: noRouteSchemas, buildSerializer: noRouteSchemas } },
    // A URL Fastify cannot decode is refused in the API's own envelope, not Fastify's.
    frameworkErrors: (error, _req, reply) =>
      void sendError(reply, 400, 'invalid_request_error', `The request URL cannot be read: ${error.message}`, { code: 'invalid_url' }),
  });
  // First of the hooks: a request's time is read before its rate window is.
  const machine = options.machineClock ?? Date.now;
  const now = options.clock === 'stamped' ? useStampedClock(app, machine) : machine;
  // The server's clock, read through `state` so that a variant may set it (variants/support/clock.ts).
  const store = new Store(profile.keyPrefix ?? 'sk_', () => state.now());
  const behaviour = faithfulBehaviour();
  const state: ReferenceState = { profile, store, limiter: new RateLimiter(profile.limits.windowSeconds * 1000, now), behaviour, now };
  const main = store.addAccount('acct_main', seedAccount(seed, 'a', options.records ?? REFERENCE_RECORDS));
  const other = store.addAccount('acct_other', seedAccount(seed + 1, 'b', 40));
  const keys = { main: store.createKey(main, 'owner key').secret, other: store.createKey(other, 'other account key').secret };
  // `Date` from the server's clock, whichever it is (the machine's, the run's, a variant's skewed
  // one): Node writes the machine's where the server wrote none.
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('date', new Date(state.now()).toUTCString());
    return payload;
  });
  const known: KnownRoute[] = [];
  app.addHook('onRoute', (route) => {
    const pattern = new RegExp(`^${route.url.replace(/:[^/]+/g, '[^/]+')}$`);
    for (const method of [route.method].flat()) known.push({ pattern, method });
  });
  app.addHook('onRequest', async (req, reply) => {
    if (req.url.startsWith('/api/')) return authenticate(state, req, reply);
  });
  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0]!;
    const allowed = known.filter((r) => r.pattern.test(path)).map((r) => r.method);
    if (allowed.length > 0) {
      reply.header('allow', [...new Set(allowed)].join(', '));
      return sendError(reply, 405, 'invalid_request_error', `${req.method} is not supported on ${path}.`, { code: 'method_not_allowed' });
    }
    return sendError(reply, 404, 'not_found_error', `No endpoint ${path}.`);
  });
  app.setErrorHandler(async (error: { statusCode?: number; code?: string; message: string }, _req, reply) => {
    const status = error.statusCode ?? 500;
    if (status === 415) return sendError(reply, 415, 'invalid_request_error', 'Content-Type must be application/json.', { code: 'unsupported_media_type' });
    if (status === 413) return sendError(reply, 413, 'invalid_request_error', 'The request body is too large.', { code: 'body_too_large' });
    if (status >= 400 && status < 500) return sendError(reply, 400, 'invalid_request_error', 'The request body is not valid JSON.', { code: 'invalid_json' });
    return sendError(reply, 500, 'api_error', 'Unexpected server error.');
  });

  resourceRoutes(app, state);
  keyRoutes(app, state);
  submissionRoutes(app, state);
  const probe = profile.forbiddenProbe;
  if (probe) {
    app.route({
      method: probe.method as 'GET',
      url: probe.path,
      handler: async (_req, reply) => sendError(reply, 403, 'authorization_error', 'API keys cannot reach admin endpoints.', { code: 'admin_only' }),
    });
  }
  const reference: ReferenceApp = { app, state, behaviour };
  options.modify?.(reference);
  return { reference, keys };
}

/** Starts the reference server; resolves once it listens. */
export async function startReference(options: ReferenceOptions = {}): Promise<RunningReference> {
  const { reference, keys } = buildReference(options);
  await reference.app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const { port } = reference.app.server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    keys,
    profile: reference.state.profile,
    close: () => reference.app.close(),
  };
}
