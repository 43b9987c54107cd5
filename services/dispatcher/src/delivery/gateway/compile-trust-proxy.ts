import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';

/** Whether the hop at `address`, `index` hops from the socket, may name the client. */
export type TrustProxy = (address: string, index: number) => boolean;

/**
 * Reads `TRUST_PROXY` as Express reads `trust proxy` (and api-gateway its own
 * `TRUST_PROXY`): `false` or empty (the socket's peer is the client), `true` (every hop
 * is trusted), a number of hops, or comma-separated addresses, subnets and presets
 * (`loopback`, `linklocal`, `uniquelocal`). Throws on an entry proxy-addr cannot read,
 * so that a typo fails at start.
 */
export function compileTrustProxy(value: string): TrustProxy {
  const text = value.trim();
  if (text === '' || text === 'false') return () => false;
  if (text === 'true') return () => true;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return (_address, index) => index < hops;
  }
  return proxyAddr.compile(text.split(',').map((entry) => entry.trim()));
}

/** The client's address: the socket's peer, or the `X-Forwarded-For` hop the trusted proxies name. */
export function clientAddress(request: IncomingMessage, trust: TrustProxy): string {
  return proxyAddr(request, trust);
}
