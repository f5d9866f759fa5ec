import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * Why the target may take the suite for its own front end, or null where it cannot. An application
 * server believes the client address a forwarding header names (`X-Forwarded-For`) when the request
 * comes from an address it trusts as its proxy's, and common defaults trust the suite's address
 * where the suite reaches the target on this machine or a private network: uvicorn and gunicorn
 * trust 127.0.0.1 (`forwarded_allow_ips`), Rails every loopback and private address
 * (`trusted_proxies`). There a request that escapes the per-IP budget by naming another address is
 * what a careful deployment behind a local front end does, not a fault the suite can tell (RATE-7).
 */
export async function trustedPeer(baseUrl: string): Promise<string | null> {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  let address = host;
  if (isIP(host) === 0) {
    try {
      address = (await lookup(host)).address;
    } catch {
      return null;
    }
  }
  if (loopback(address))
    return `the suite reaches the target on loopback (${address}), an address application servers trust as their own front end's by default (uvicorn's and gunicorn's forwarded_allow_ips)`;
  if (privateAddress(address))
    return `the suite reaches the target at a private address (${address}), which application servers may trust as their own front end's by default (Rails' trusted_proxies)`;
  return null;
}

function loopback(address: string): boolean {
  return /^127\./.test(address) || address === '::1' || /^::ffff:127\./i.test(address);
}

function privateAddress(address: string): boolean {
  const v4 = address.replace(/^::ffff:/i, '');
  if (isIP(v4) === 4) {
    const [a, b] = v4.split('.').map(Number) as [number, number];
    // RFC 1918, shared address space (RFC 6598), link-local.
    return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254);
  }
  // Unique local (fc00::/7) and link-local (fe80::/10) IPv6.
  return /^f[cd][0-9a-f]{2}:/i.test(address) || /^fe[89ab][0-9a-f]:/i.test(address);
}
