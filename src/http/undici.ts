import { createRequire } from 'node:module';
import type * as Undici from 'undici';

/**
 * The part of undici the transport uses: its agents and its `request`, loaded from their own
 * modules. undici's entry point also loads fetch, WebSocket, EventSource, the caches and the mock
 * agents, some 55 ms of module loading in every process and thread that sends a request (the run's
 * main process and each vitest worker, at their start). The package has no export map, so its
 * modules may be required by path; where a version moved one, its entry point is loaded instead.
 */
const require = createRequire(import.meta.url);

interface Parts {
  readonly Agent: typeof Undici.Agent;
  readonly Client: typeof Undici.Client;
  readonly Pool: typeof Undici.Pool;
  readonly EnvHttpProxyAgent: typeof Undici.EnvHttpProxyAgent;
  readonly request: typeof Undici.request;
  readonly buildConnector: typeof Undici.buildConnector;
}

function load(): Parts {
  try {
    const { InvalidArgumentError } = require('undici/lib/core/errors.js') as typeof Undici.errors;
    const { parseURL } = require('undici/lib/core/util.js') as { parseURL: (url: string | URL) => URL };
    // As the entry point does: the dispatchers' API methods (`request`, `connect`, ...) are set on
    // their prototype, which the proxy agents use too.
    const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as typeof Undici.Dispatcher;
    Object.assign(Dispatcher.prototype, require('undici/lib/api/index.js'));
    const request = ((url: string | URL, options: Parameters<typeof Undici.request>[1] = {}) => {
      // As the entry point's `request` (its `makeDispatcher`), for a URL and a dispatcher.
      if (!options.dispatcher) throw new InvalidArgumentError('a dispatcher is required');
      const parsed = parseURL(url);
      return options.dispatcher.request({
        ...options,
        origin: parsed.origin,
        path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
        method: options.method ?? (options.body ? 'PUT' : 'GET'),
      } as Undici.Dispatcher.RequestOptions);
    }) as typeof Undici.request;
    return {
      Agent: require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent,
      Client: require('undici/lib/dispatcher/client.js') as typeof Undici.Client,
      Pool: require('undici/lib/dispatcher/pool.js') as typeof Undici.Pool,
      EnvHttpProxyAgent: require('undici/lib/dispatcher/env-http-proxy-agent.js') as typeof Undici.EnvHttpProxyAgent,
      request,
      buildConnector: require('undici/lib/core/connect.js') as typeof Undici.buildConnector,
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    const undici = require('undici') as typeof Undici;
    const { Agent, Client, Pool, EnvHttpProxyAgent, request, buildConnector } = undici;
    return { Agent, Client, Pool, EnvHttpProxyAgent, request, buildConnector };
  }
}

export const { Agent, Client, Pool, EnvHttpProxyAgent, request, buildConnector } = load();
