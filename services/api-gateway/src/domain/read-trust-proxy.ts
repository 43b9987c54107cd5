import { isIP } from 'node:net';

/** Express's `trust proxy` value: off, on, a hop count, or the addresses of trusted proxies. */
export type TrustProxy = boolean | number | string[];

/** The named ranges Express (proxy-addr) knows. */
const PRESETS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Reads `TRUST_PROXY` the way Express reads `trust proxy`: `false` or empty (the socket's
 * peer is the client), `true` (every hop is trusted: the leftmost `X-Forwarded-For` entry
 * is the client), a number of hops, or comma-separated addresses, subnets (`10.0.0.0/8`,
 * `10.0.0.0/255.0.0.0`) and presets (`loopback`, `linklocal`, `uniquelocal`). Throws a
 * message naming what it cannot read, so that a typo fails at start rather than trusting
 * nothing, or everything.
 */
export function readTrustProxy(value: string): TrustProxy {
  const text = value.trim();
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  const unreadable = entries.filter((entry) => !isProxyAddress(entry));
  if (unreadable.length > 0) {
    throw new Error(`not an address, subnet or preset: ${unreadable.map((e) => `'${e}'`).join(', ')}`);
  }
  return entries;
}

function isProxyAddress(entry: string): boolean {
  if (PRESETS.has(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  // proxy-addr refuses a /0 as well.
  if (/^\d+$/.test(range)) return Number(range) >= 1 && Number(range) <= (version === 4 ? 32 : 128);
  return version === 4 && isIP(range) === 4;
}
