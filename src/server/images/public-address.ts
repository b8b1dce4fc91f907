import ipaddr from 'ipaddr.js';

/**
 * Whether the server may connect to `address` for a stranger's image: only a public
 * unicast address. ipaddr.js names every special range (private, loopback, link-local,
 * multicast, carrier-grade NAT, unique local, documentation, 6to4 and Teredo tunnels
 * that can carry a private IPv4 …) and calls only the rest `unicast`; an IPv4-mapped IPv6
 * address is judged as the IPv4 address it is.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}
