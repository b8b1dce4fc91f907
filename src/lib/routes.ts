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

/**
 * The path with every `%` that does not begin a decodable escape written as `%25`, so a
 * pasted or cut URL ("/contracts/0x12%zz", "%E0%A4%A") reaches the page as the text it
 * shows, which then says what is wrong with it, instead of failing to decode (the router
 * warns and matches the raw text). Well-formed paths come back unchanged.
 */
export function repairPercentEncoding(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      try {
        decodeURIComponent(segment);
        return segment;
      } catch {
        return segment.replace(/%/g, '%25');
      }
    })
    .join('/');
}
