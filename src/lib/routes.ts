/**
 * The app's routes and their href builders, in one place. Builders take canonical
 * values (see address.ts and token-id.ts) so every link is already the canonical URL.
 */
export const routePatterns = {
  home: '/',
  contracts: '/contracts',
  contractEvents: '/contracts/:address',
  tokenHistory: '/contracts/:address/tokens/:tokenId',
} as const;

export const hrefs = {
  contracts: (search = '') => `/contracts${search}`,
  contractEvents: (address: string, search = '') => `/contracts/${address}${search}`,
  tokenHistory: (address: string, tokenId: string, search = '') =>
    `/contracts/${address}/tokens/${tokenId}${search}`,
};
