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

type Family = 'ipv4' | 'ipv6';

function list(entries: Array<[string, number, Family]>): BlockList {
  const blocks = new BlockList();
  for (const [net, prefix, type] of entries) blocks.addSubnet(net, prefix, type);
  return blocks;
}

// The ranges below are IANA's special-purpose address registries
// (https://www.iana.org/assignments/iana-ipv4-special-registry,
// https://www.iana.org/assignments/iana-ipv6-special-registry), sorted by what an operator
// may allow. Ranges that embed an IPv4 address (IPv4-mapped, NAT64's well-known prefix,
// 6to4) are judged by that IPv4 address instead (`embeddedIpv4`).

const LOOPBACK = list([
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
]);
const PRIVATE = list([
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // shared address space (carrier-grade NAT)
  ['fc00::', 7, 'ipv6'], // unique local
  ['fec0::', 10, 'ipv6'], // site-local (deprecated, still routed inside sites)
  ['64:ff9b:1::', 48, 'ipv6'], // local-use NAT64 (RFC 8215)
]);
const LINK_LOCAL = list([
  ['169.254.0.0', 16, 'ipv4'], // includes cloud metadata endpoints (169.254.169.254)
  ['fe80::', 10, 'ipv6'],
]);
/**
 * Globally reachable assignments inside the IETF protocol block 2001::/23, which is
 * otherwise refused: PCP and TURN anycast, AMT, AS112 and ORCHIDv2.
 */
const GLOBAL_IN_IETF_BLOCK = list([
  ['2001:1::1', 128, 'ipv6'],
  ['2001:1::2', 128, 'ipv6'],
  ['2001:3::', 32, 'ipv6'],
  ['2001:4:112::', 48, 'ipv6'],
  ['2001:20::', 28, 'ipv6'],
]);
/** Never reachable destinations, whatever the policy: not unicast, not routed, or not real hosts. */
const NEVER = list([
  ['0.0.0.0', 8, 'ipv4'], // "this network"
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments (DS-Lite, NAT64 discovery...)
  ['192.0.2.0', 24, 'ipv4'], // documentation (TEST-NET-1)
  ['192.88.99.0', 24, 'ipv4'], // 6to4 relay anycast (deprecated)
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation (TEST-NET-2)
  ['203.0.113.0', 24, 'ipv4'], // documentation (TEST-NET-3)
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, and the limited broadcast address
  ['::', 96, 'ipv6'], // unspecified and IPv4-compatible (deprecated); ::1 is loopback, checked first
  ['100::', 64, 'ipv6'], // discard-only
  ['100:0:0:1::', 64, 'ipv6'], // dummy prefix
  ['2001::', 23, 'ipv6'], // IETF protocol assignments (Teredo, benchmarking, ORCHID...), but the global ones
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['3fff::', 20, 'ipv6'], // documentation
  ['5f00::', 16, 'ipv6'], // segment routing SIDs
  ['ff00::', 8, 'ipv6'], // multicast
]);

/** The 8 groups of 16 bits of a valid IPv6 address (no zone), the IPv4 tail expanded. */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = (dotted[1] as string).split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  const zeros = tail === undefined ? [] : Array<number>(8 - front.length - back.length).fill(0);
  return [...front, ...zeros, ...back];
}

const ipv4Of = (high: number, low: number): string =>
  [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

/**
 * The IPv4 address an IPv6 address stands for, where the network delivers it to that IPv4
 * address: IPv4-mapped (`::ffff:a.b.c.d`), NAT64's well-known prefix (`64:ff9b::/96`,
 * RFC 6052) and 6to4 (`2002:AABB:CCDD::/48`, RFC 3056).
 */
function embeddedIpv4(groups: number[]): string | undefined {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return ipv4Of(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return ipv4Of(g6, g7);
  if (g0 === 0x2002) return ipv4Of(g1, g2);
  return undefined;
}

/**
 * Why `address` may not be connected to under `policy`, or undefined when it may.
 * Checked for every address a host name resolves to, at every delivery. An IPv6 zone
 * (`fe80::1%eth0`) is ignored; an IPv6 address that embeds an IPv4 destination is judged
 * as that IPv4 address.
 */
export function refusalOf(address: string, policy: AddressPolicy): string | undefined {
  const bare = address.replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 0) return `${address} is not an IP address`;
  if (version === 6) {
    const ipv4 = embeddedIpv4(ipv6Groups(bare));
    if (ipv4 !== undefined) {
      const refusal = judge(ipv4, 'ipv4', policy);
      return refusal && `${address} (IPv4 ${ipv4}) ${refusal}`;
    }
  }
  const refusal = judge(bare, version === 4 ? 'ipv4' : 'ipv6', policy);
  return refusal && `${address} ${refusal}`;
}

/** What is wrong with the address `ip`, or undefined. */
function judge(ip: string, type: Family, policy: AddressPolicy): string | undefined {
  if (LOOPBACK.check(ip, type)) return policy.allowLoopback ? undefined : 'is a loopback address';
  if (NEVER.check(ip, type) && !GLOBAL_IN_IETF_BLOCK.check(ip, type)) return 'is a special-purpose address';
  if (PRIVATE.check(ip, type) && !policy.allowPrivate) return 'is a private address';
  if (LINK_LOCAL.check(ip, type) && !policy.allowLinkLocal) return 'is a link-local address';
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
