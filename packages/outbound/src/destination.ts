import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { refusalOf, type AddressPolicy } from './address-policy';

/** Resolves a host name to every address (replaceable in tests). */
export type Resolver = (host: string) => Promise<string[]>;

/** The system's resolver: every address of the name, in the order the system gives them. */
export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** A destination that may be connected to: the URL, its host and the checked address to connect to. */
export interface CheckedDestination {
  kind: 'checked';
  url: URL;
  host: string;
  address: string;
}

/**
 * The checks every outbound request makes before it connects (webhook posts and document
 * fetches alike): http(s) only, no credentials in the URL, the host resolved now and
 * **every** address it resolves to allowed by the policy; the connection then goes to the
 * first of them (no second lookup). A refusal means nothing was sent.
 */
export async function checkDestination(
  target: string,
  policy: AddressPolicy,
  resolve: Resolver,
): Promise<CheckedDestination | { kind: 'refused'; reason: string } | { kind: 'failed'; reason: string }> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { kind: 'refused', reason: 'the URL is not valid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { kind: 'refused', reason: `the URL scheme ${url.protocol} is not http or https` };
  }
  if (url.username || url.password) return { kind: 'refused', reason: 'the URL carries credentials' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch (error) {
    return {
      kind: 'failed',
      reason: `${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? error})`,
    };
  }
  if (addresses.length === 0) return { kind: 'failed', reason: `${host} does not resolve` };
  for (const address of addresses) {
    const refusal = refusalOf(address, policy);
    if (refusal) return { kind: 'refused', reason: `${host} resolves to ${refusal}` };
  }
  return { kind: 'checked', url, host, address: addresses[0] as string };
}
