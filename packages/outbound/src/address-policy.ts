import { BlockList, isIP } from 'node:net';

/** Which non-public destinations an operator allows outbound requests to apps to reach. */
export interface AddressPolicy {
  allowLoopback: boolean;
  allowPrivate: boolean;
  allowLinkLocal: boolean;
}

/** The default: public addresses only. */
export const PUBLIC_ONLY: AddressPolicy = {
  allowLoopback: false,
  allowPrivate: false,
  allowLinkLocal: false,
};

function list(entries: Array<[string, number, 'ipv4' | 'ipv6']>): BlockList {
  const blocks = new BlockList();
  for (const [net, prefix, type] of entries) blocks.addSubnet(net, prefix, type);
  return blocks;
}

const LOOPBACK = list([
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
]);
const PRIVATE = list([
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['fc00::', 7, 'ipv6'], // unique local
]);
const LINK_LOCAL = list([
  ['169.254.0.0', 16, 'ipv4'], // includes cloud metadata endpoints (169.254.169.254)
  ['fe80::', 10, 'ipv6'],
]);
/** Never reachable destinations, whatever the policy. */
const NEVER = list([
  ['0.0.0.0', 8, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved and broadcast
  ['::', 128, 'ipv6'],
  ['ff00::', 8, 'ipv6'], // multicast
]);

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`), if it is one. */
function unmapped(address: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match?.[1] ?? address;
}

/**
 * Why `address` may not be connected to under `policy`, or undefined when it may.
 * Checked for every address a host name resolves to, at every delivery.
 */
export function refusalOf(address: string, policy: AddressPolicy): string | undefined {
  const ip = unmapped(address);
  const version = isIP(ip);
  if (version === 0) return `${address} is not an IP address`;
  const type = version === 4 ? 'ipv4' : 'ipv6';
  if (NEVER.check(ip, type)) return `${address} is not a unicast address`;
  if (LOOPBACK.check(ip, type) && !policy.allowLoopback) return `${address} is a loopback address`;
  if (PRIVATE.check(ip, type) && !policy.allowPrivate) return `${address} is a private address`;
  if (LINK_LOCAL.check(ip, type) && !policy.allowLinkLocal) return `${address} is a link-local address`;
  return undefined;
}

/** Reads the operator's setting: a comma-separated list of `loopback`, `private`, `link-local`. */
export function parseAddressPolicy(setting: string): AddressPolicy {
  const allowed = new Set(
    setting
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  return {
    allowLoopback: allowed.has('loopback'),
    allowPrivate: allowed.has('private'),
    allowLinkLocal: allowed.has('link-local'),
  };
}
