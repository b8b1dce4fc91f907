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
