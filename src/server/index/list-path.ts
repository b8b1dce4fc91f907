/** Which list an upstream path (the event store's name for a list) is. */
export type ListTarget =
  | { kind: 'contracts' }
  | { kind: 'contract-events'; contract: string }
  | { kind: 'token-events'; contract: string; tokenId: string };

const EVENTS = /^\/v1\/events\/(0x[0-9a-f]{64})(?:\/([0-9]+))?$/;

export function parseListPath(path: string): ListTarget | null {
  if (path === '/v1/contracts') return { kind: 'contracts' };
  const match = EVENTS.exec(path);
  if (!match) return null;
  const contract = match[1]!;
  return match[2] === undefined
    ? { kind: 'contract-events', contract }
    : { kind: 'token-events', contract, tokenId: match[2] };
}

export const contractEventsPath = (contract: string) => `/v1/events/${contract}`;
export const tokenEventsPath = (contract: string, tokenId: string) =>
  `/v1/events/${contract}/${tokenId}`;
