import { isIP } from 'node:net';

/**
 * The address a client is counted by: IPv4 as is (also when the socket reports it
 * IPv4-mapped, `::ffff:a.b.c.d`), IPv6 by its /64, the smallest network a subscriber is
 * given, since any host can pick new addresses inside its /64 at will.
 */
export function clientOf(ip: string | undefined): string | undefined {
  if (!ip) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (isIP(ip) !== 6) return ip;
  const address = ip.split('%')[0]!.toLowerCase();
  const [head = '', tail] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  // A dotted IPv4 tail (`64:ff9b::192.0.2.1`) takes two groups.
  const size = [...left, ...right].reduce((n, group) => n + (group.includes('.') ? 2 : 1), 0);
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - size).fill('0'), ...right];
  const prefix = groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, ''));
  return `${prefix.join(':')}::/64`;
}
