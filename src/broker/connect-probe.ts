import { connect } from 'node:net';

/** How long one probe waits for a connection. */
const PROBE_TIMEOUT_MS = 2000;

/**
 * Whether a new TCP connection to the target can be made now: how a target that stopped
 * answering is confirmed gone, also while the run sends nothing (a wait for a rate-limit
 * window). Null behind an HTTP(S) proxy, where the suite does not reach the target directly.
 */
export function connectProbe(baseUrl: string): (() => Promise<boolean>) | null {
  if (['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy'].some((name) => process.env[name])) return null;
  const url = new URL(baseUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  return () =>
    new Promise<boolean>((resolve) => {
      const socket = connect({ host, port });
      const done = (connected: boolean) => {
        clearTimeout(timer);
        socket.destroy();
        resolve(connected);
      };
      const timer = setTimeout(() => done(false), PROBE_TIMEOUT_MS);
      socket.once('connect', () => done(true));
      socket.once('error', () => done(false));
    });
}
