/**
 * Every query key of the app in one place. A key names everything its query fetches
 * with: a list's key names the list and the size of its first page, and each later
 * page's cursor and size are its page param, kept with the page (see page-param.ts).
 * Infinite lists and single queries never share a key (their cached data have different
 * shapes).
 */
export const queryKeys = {
  meta: () => ['meta'] as const,
  contracts: () => ['contracts', 'list'] as const,
  contractEvents: (address: string, limit: number) =>
    ['events', 'contract', address, 'list', limit] as const,
  contractHead: (address: string, limit: number) =>
    ['events', 'contract', address, 'head', limit] as const,
  tokenEvents: (address: string, tokenId: string) =>
    ['events', 'token', address, tokenId, 'list'] as const,
  /** A wallet across the indexed collections (the query API, not the service). */
  wallet: (address: string) => ['wallet', address, 'collections'] as const,
  /** A wallet's changes of hands, newest first, in one collection or all (null). */
  walletEvents: (address: string, collection: string | null) =>
    ['wallet', address, 'events', collection] as const,
};
