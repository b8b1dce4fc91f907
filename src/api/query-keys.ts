/**
 * Every query key of the app in one place. Infinite lists and single queries never
 * share a key (their cached data have different shapes).
 */
export const queryKeys = {
  meta: () => ['meta'] as const,
  contracts: () => ['contracts', 'list'] as const,
  contractEvents: (address: string, limit: number) =>
    ['events', 'contract', address, 'list', limit] as const,
  contractHead: (address: string) => ['events', 'contract', address, 'head'] as const,
  tokenEvents: (address: string, tokenId: string) =>
    ['events', 'token', address, tokenId, 'list'] as const,
};
