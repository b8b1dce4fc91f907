import {
  RANKING_SORTS,
  WINDOWS,
  type RankingSortId,
  type RankedContract,
  type RankingWindow,
  type Volume,
} from './answers';
import { CURRENCIES, type Currency } from './price';
import { formatSort, parseSort, searchText, type SortState } from './view-state';

/**
 * The collections ranking as a view: its window, its sort, the currency of its volumes and
 * its search text, read from the page's URL and written back to it and to the query API
 * (`GET /api/collections`). Defaults are left out of both, so equal views have equal
 * URLs and share one cache entry; unknown values fall back to the defaults.
 */
export interface RankingView {
  window: RankingWindow;
  sort: SortState<RankingSortId>;
  currency: Currency;
  q: string;
  /** Sales flagged as wash trades left out of the figures (`wash=exclude`). */
  excludeWash: boolean;
}

export const RANKING_WINDOWS = Object.keys(WINDOWS) as RankingWindow[];

/** The window, sort and currency the query API ranks by when none is named. */
export const DEFAULT_RANKING: Omit<RankingView, 'q'> = {
  window: '7d',
  sort: { id: 'events', desc: true },
  currency: CURRENCIES[0]!,
  excludeWash: false,
};

/** The longest search text sent (the server refuses longer). */
export const SEARCH_MAX = 200;

export function parseRankingView(params: URLSearchParams): RankingView {
  const window = RANKING_WINDOWS.find((w) => w === params.get('window')?.toLowerCase());
  const currency = CURRENCIES.find((c) => c.symbol === params.get('currency')?.toUpperCase());
  return {
    window: window ?? DEFAULT_RANKING.window,
    sort: parseSort(params.get('sort'), RANKING_SORTS) ?? DEFAULT_RANKING.sort,
    currency: currency ?? DEFAULT_RANKING.currency,
    q: (params.get('q') ?? '').trim().slice(0, SEARCH_MAX),
    excludeWash: params.get('wash') === 'exclude',
  };
}

/** The view's parameters, defaults left out, in a fixed order. */
function rankingParams(view: RankingView): URLSearchParams {
  const params = new URLSearchParams();
  const sort = formatSort(view.sort);
  if (view.currency !== DEFAULT_RANKING.currency) params.set('currency', view.currency.symbol);
  if (view.q) params.set('q', view.q);
  if (sort !== formatSort(DEFAULT_RANKING.sort)) params.set('sort', sort!);
  if (view.excludeWash) params.set('wash', 'exclude');
  if (view.window !== DEFAULT_RANKING.window) params.set('window', view.window);
  return params;
}

/** The page's canonical search ("?sort=-volume&window=all", or "" for the defaults). */
export function rankingSearch(view: RankingView): string {
  return searchText(rankingParams(view));
}

/** The canonical search of whatever the URL says: a URL whose search differs is replaced. */
export function canonicalRankingSearch(params: URLSearchParams): string {
  return rankingSearch(parseRankingView(params));
}

/** Nothing of the collection is indexed yet: its figures are unknown, not zero. */
export const notIndexed = (row: RankedContract) => !row.complete && row.indexedBack === null;

/** The first hour (unix hours) a window counts, at `nowSeconds`; 0 for the whole history. */
export function windowStartHour(window: RankingWindow, nowSeconds: number): number {
  const hours = WINDOWS[window];
  return hours === null ? 0 : Math.floor(nowSeconds / 3600) - hours + 1;
}

/** The shortest window that counts an event at `time` (unix seconds). */
export const windowHolding = (time: number, nowSeconds: number): RankingWindow =>
  RANKING_WINDOWS.find((window) => windowStartHour(window, nowSeconds) <= Math.floor(time / 3600))!;

/**
 * A collection's volume in one currency, exact base units (ETH's counts the sales that
 * named no currency: the index stores them as ETH). The server ranks by it and the page
 * shows it, so the order and the figures agree.
 */
export function volumeIn(volumes: readonly Volume[], currency: string): bigint {
  return BigInt(volumes.find((volume) => volume.currency.address === currency)?.volume ?? 0);
}
