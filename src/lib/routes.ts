/**
 * The app's routes and their href builders, in one place. Builders take canonical
 * values (see address.ts and token-id.ts) so every link is already the canonical URL.
 */
export const routePatterns = {
  home: '/',
  contracts: '/contracts',
  contractEvents: '/contracts/:address',
  tokenHistory: '/contracts/:address/tokens/:tokenId',
  holders: '/contracts/:address/holders',
  market: '/contracts/:address/market',
  wallet: '/addresses/:address',
  transaction: '/transactions/:hash',
  apiDocs: '/api-docs',
  webhooks: '/webhooks',
  embedActivity: '/embed/contracts/:address/activity',
  embedLatest: '/embed/contracts/:address/latest',
} as const;

export type RouteName = keyof typeof routePatterns;

/**
 * Each page's module under `src/pages`: the router loads it on demand (a chunk of its own)
 * and the server names its code in the page it sends, so the browser fetches it beside the
 * entry's instead of after it (src/server/http/page-code.ts).
 */
export const pageModules = {
  contracts: 'contracts/contracts-page',
  contractEvents: 'contract-events/contract-events-page',
  tokenHistory: 'token-history/token-history-page',
  holders: 'holders/holders-page',
  market: 'market/market-page',
  wallet: 'wallet/wallet-page',
  transaction: 'transaction/transaction-page',
  apiDocs: 'api-docs/api-docs-page',
  webhooks: 'webhooks/webhooks-page',
  embedActivity: 'embed/embed-page',
  embedLatest: 'embed/embed-page',
} as const satisfies Partial<Record<RouteName, string>>;

/**
 * The route a path is, matched as the router does (`:name` is any one segment; case and a
 * trailing slash do not matter), or null.
 */
export function matchRoute(path: string): RouteName | null {
  const segments = pathSegments(path);
  const found = routeSegments.find(
    ([, parts]) =>
      parts.length === segments.length &&
      parts.every((part, i) => {
        const segment = segments[i] ?? '';
        return part.startsWith(':') ? segment !== '' : part === segment.toLowerCase();
      }),
  );
  return found?.[0] ?? null;
}

function pathSegments(path: string): string[] {
  return path.replace(/^\//, '').replace(/\/+$/, '').split('/');
}

// Each route's pattern in segments, split once.
const routeSegments = (Object.entries(routePatterns) as [RouteName, string][]).map(
  ([name, pattern]) => [name, pathSegments(pattern)] as const,
);

export const hrefs = {
  contracts: (search = '') => `/contracts${search}`,
  contractEvents: (address: string, search = '') => `/contracts/${address}${search}`,
  tokenHistory: (address: string, tokenId: string, search = '') =>
    `/contracts/${address}/tokens/${tokenId}${search}`,
  holders: (address: string, search = '') => `/contracts/${address}/holders${search}`,
  market: (address: string, search = '') => `/contracts/${address}/market${search}`,
  wallet: (address: string, search = '') => `/addresses/${address}${search}`,
  transaction: (hash: string) => `/transactions/${hash}`,
  apiDocs: (route = '') => `/api-docs${route ? `#${route}` : ''}`,
  webhooks: (search = '') => `/webhooks${search}`,
  embedActivity: (address: string, search = '') => `/embed/contracts/${address}/activity${search}`,
  embedLatest: (address: string, search = '') => `/embed/contracts/${address}/latest${search}`,
};

/**
 * The pages made to sit in another site's iframe: the only ones another origin may frame
 * (src/server/http/security-headers.ts), shown without the app's header and footer.
 */
export function isEmbedPath(path: string): boolean {
  const route = matchRoute(path);
  return route === 'embedActivity' || route === 'embedLatest';
}

/**
 * The path with the `%` of every segment that does not decode written as `%25`, so a
 * pasted or cut URL ("/contracts/0x12%zz", "%E0%A4%A") reaches the page as the text it
 * shows, which then says what is wrong with it, instead of failing to decode (the router
 * warns and matches the raw text). Well-formed paths come back unchanged.
 */
export function repairPercentEncoding(path: string): string {
  return path
    .split('/')
    .map((segment) => (decodable(segment) ? segment : segment.replace(/%/g, '%25')))
    .join('/');
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether `decodeURIComponent` would take the segment: every `%` starts two hex digits, and
 * each run of escapes is UTF-8. Checked without calling it, because a minifier may drop a
 * call whose value is unused, taking the exception it would throw along with it.
 */
function decodable(segment: string): boolean {
  if (/%(?![0-9a-f]{2})/i.test(segment)) return false;
  for (const run of segment.match(/(?:%[0-9a-f]{2})+/gi) ?? []) {
    const bytes = Uint8Array.from(run.slice(1).split('%'), (hex) => parseInt(hex, 16));
    try {
      utf8.decode(bytes);
    } catch {
      return false;
    }
  }
  return true;
}

/** Where any view's Atom feed is: this prefix before the view's path and search. */
export const FEED_PREFIX = '/api/feed';
export const feedHref = (path: string, search = '') => `${FEED_PREFIX}${path}${search}`;

/** The webhooks page with its form set to watch a view (its path and search), to share. */
export const webhookForViewHref = (path: string, search = '') =>
  hrefs.webhooks(`?${new URLSearchParams({ view: `${path}${search}` })}`);
