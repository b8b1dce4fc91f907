import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** `localhost`, or a loopback address (`127.0.0.1`, `::1`, bracketed or not). */
export function isLoopback(hostname: string): boolean {
  if (hostname === 'localhost') return true;
  const address = hostname.replace(/^\[(.*)\]$/, '$1');
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'loopback';
}

// Ranges a proxy of one's own is reached from: this machine, or a network of one's own.
const INTERNAL_RANGES = new Set([
  'loopback',
  'private',
  'uniqueLocal',
  'linkLocal',
  'carrierGradeNat',
]);

/** Whether an address is on this machine or a private network (not the open internet). */
export function isInternalAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  return ipaddr.isValid(bare) && INTERNAL_RANGES.has(ipaddr.process(bare).range());
}

/**
 * Whether the server may connect to `address` for a stranger (a collection's image, a
 * webhook's receiver): only a public unicast address. ipaddr.js names every special range
 * (private, loopback, link-local, multicast, carrier-grade NAT, unique local,
 * documentation, 6to4 and Teredo tunnels that can carry a private IPv4 …) and calls only
 * the rest `unicast`; an IPv4-mapped IPv6 address is judged as the IPv4 address it is.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** Why a connection to a stranger's URL was not made; its message is said as it is. */
export class AddressRefused extends Error {}

export interface AddressCheck {
  /** A host name's addresses (default: the system's resolver). */
  resolve?: ((hostname: string) => Promise<string[]>) | undefined;
  /** Whether an address may be connected to (default: public unicast only). */
  permits?: ((address: string) => boolean) | undefined;
}

/**
 * The one address to connect to for a stranger's URL: the name resolved here and every
 * address it gives checked (one bad address refuses the name), so that the connection
 * is made to a checked address (`lookupAs`), never to what a second lookup might answer.
 */
export async function pinnedAddress(hostname: string, check: AddressCheck = {}): Promise<string> {
  const permits = check.permits ?? isPublicAddress;
  const literal = hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = ipaddr.isValid(literal)
    ? [literal]
    : await (check.resolve ?? systemResolve)(hostname);
  if (addresses.length === 0) throw new AddressRefused(`${hostname} has no address`);
  const refused = addresses.find((address) => !permits(address));
  if (refused !== undefined) {
    throw new AddressRefused(`${hostname} is at ${refused}, not a public address`);
  }
  return addresses[0]!;
}

async function systemResolve(hostname: string): Promise<string[]> {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
}

/** Connects to `address` whatever name the request carries (TLS still checks the name). */
export function lookupAs(address: string): LookupFunction {
  const family = ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4;
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/** Whether a URL's host is an address literal (no name to send for TLS). */
export const isAddressLiteral = (hostname: string) =>
  ipaddr.isValid(hostname.replace(/^\[(.*)\]$/, '$1'));
