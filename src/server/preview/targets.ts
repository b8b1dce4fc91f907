import { canonicalAddress } from '../../lib/address';
import { hrefs } from '../../lib/routes';
import { canonicalTokenId } from '../../lib/token-id';
import type { PreviewTarget } from './read-preview';

/** Where a target's image is served, under the API (`/api/preview/…`). */
export function imagePath(target: PreviewTarget): string {
  switch (target.kind) {
    case 'collection':
      return `/api/preview/collections/${target.address}.png`;
    case 'holders':
    case 'market':
      return `/api/preview/collections/${target.address}/${target.kind}.png`;
    case 'token':
      return `/api/preview/collections/${target.address}/tokens/${target.tokenId}.png`;
    case 'wallet':
      return `/api/preview/wallets/${target.address}.png`;
  }
}

/** The app's own page of a target, canonical: what a card's link names. */
export function pagePath(target: PreviewTarget): string {
  switch (target.kind) {
    case 'collection':
      return hrefs.contractEvents(target.address);
    case 'holders':
      return hrefs.holders(target.address);
    case 'market':
      return hrefs.market(target.address);
    case 'token':
      return hrefs.tokenHistory(target.address, target.tokenId);
    case 'wallet':
      return hrefs.wallet(target.address);
  }
}

const PAGES: [RegExp, (parts: string[]) => PreviewTarget | null][] = [
  [/^\/contracts\/([^/]+)$/, ([a]) => collection(a!)],
  [
    /^\/contracts\/([^/]+)\/(holders|market)$/,
    ([a, page]) => collection(a!, page as CollectionPage),
  ],
  [/^\/contracts\/([^/]+)\/tokens\/([^/]+)$/, ([a, t]) => token(a!, t!)],
  [/^\/addresses\/([^/]+)$/, ([a]) => wallet(a!)],
];
const IMAGES: typeof PAGES = [
  [/^\/collections\/([^/]+)\.png$/, ([a]) => collection(a!)],
  [
    /^\/collections\/([^/]+)\/(holders|market)\.png$/,
    ([a, page]) => collection(a!, page as CollectionPage),
  ],
  [/^\/collections\/([^/]+)\/tokens\/([^/]+)\.png$/, ([a, t]) => token(a!, t!)],
  [/^\/wallets\/([^/]+)\.png$/, ([a]) => wallet(a!)],
];

/**
 * The target of a page's path (`/contracts/0x…`, `…/holders`, `…/market`, `…/tokens/12`,
 * `/addresses/0x…`), or null for any other page and for an address or id that is not one.
 */
export const pageTarget = (path: string) => match(PAGES, path);

/** The target of an image's path below `/api/preview`, or null. */
export const imageTarget = (path: string) => match(IMAGES, path);

function match(table: typeof PAGES, path: string): PreviewTarget | null {
  for (const [pattern, make] of table) {
    const found = pattern.exec(path);
    if (found) return make(found.slice(1));
  }
  return null;
}

type CollectionPage = 'collection' | 'holders' | 'market';

/** A collection's page: its events (`collection`), its holders or its market. */
function collection(address: string, kind: CollectionPage = 'collection'): PreviewTarget | null {
  const canonical = canonicalAddress(address);
  return canonical ? { kind, address: canonical } : null;
}

function token(address: string, tokenId: string): PreviewTarget | null {
  const canonical = canonicalAddress(address);
  const id = canonicalTokenId(tokenId);
  return canonical && id ? { kind: 'token', address: canonical, tokenId: id } : null;
}

function wallet(address: string): PreviewTarget | null {
  const canonical = canonicalAddress(address);
  return canonical ? { kind: 'wallet', address: canonical } : null;
}
