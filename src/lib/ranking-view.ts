import {
  RANKING_SORTS,
  WINDOWS,
  type RankingSortId,
  type RankedContract,
  type RankingWindow,
  type Volume,
} from './answers';
import { quoteParam, readSort, Reasons, searchReading, type SearchReading } from './param-reading';
import { CURRENCIES, type Currency } from './price';
import { formatSort, searchText, type SortState } from './view-state';
import { HOUR } from './utc';

/**
 * The collections ranking as a view: its window, its sort, the currency of its volumes and
 * its search text, read from the page's URL and written back to it and to the query API
 * (`GET /api/collections`). Defaults are left out of both, so equal views have equal
 * URLs and share one cache entry; unknown values fall back to the defaults, saying why.
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

/** The view a link states, and why the values it cannot take were left out. */
function readRankingView(params: URLSearchParams): { view: RankingView; reasons: Reasons } {
  const reasons = new Reasons();
  const given = (key: string) => params.get(key) || null;
  const windowText = given('window');
  const window = RANKING_WINDOWS.find((w) => w === windowText?.toLowerCase());
  if (windowText && !window) {
    reasons.add(
      `${quoteParam('window', windowText)} is no window of the ranking (${RANKING_WINDOWS.join(', ')}): the last 7 days are shown.`,
    );
  }
  const currencyText = given('currency');
  const currency = CURRENCIES.find((c) => c.symbol === currencyText?.toUpperCase());
  if (currencyText && !currency) {
    reasons.add(
      `${quoteParam('currency', currencyText)} is no currency the ranking counts (${CURRENCIES.map((c) => c.symbol).join(', ')}): volumes in ETH are shown.`,
    );
  }
  const q = (params.get('q') ?? '').trim();
  if (q.length > SEARCH_MAX) {
    reasons.add(
      `The search is longer than ${SEARCH_MAX} characters: its first ${SEARCH_MAX} are searched.`,
    );
  }
  const wash = given('wash');
  if (wash && wash !== 'exclude' && wash !== 'include') {
    reasons.add(
      `${quoteParam('wash', wash)} is no choice of the ranking (exclude leaves flagged sales out): flagged sales are counted with the others.`,
    );
  }
  const sort = readSort(given('sort'), RANKING_SORTS, 'the most events first');
  const view: RankingView = {
    window: window ?? DEFAULT_RANKING.window,
    sort: reasons.take(sort) ?? DEFAULT_RANKING.sort,
    currency: currency ?? DEFAULT_RANKING.currency,
    q: q.slice(0, SEARCH_MAX),
    excludeWash: wash === 'exclude',
  };
  return { view, reasons };
}

export const parseRankingView = (params: URLSearchParams): RankingView =>
  readRankingView(params).view;

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

/** Whatever the URL says read: a URL whose search differs is replaced by the canonical one. */
export function readRankingSearch(params: URLSearchParams): SearchReading {
  const { view, reasons } = readRankingView(params);
  const entries = [...rankingParams(view)];
  return searchReading(params, entries, reasons, ['currency', 'q', 'sort', 'wash', 'window']);
}

/** Nothing of the collection is indexed yet: its figures are unknown, not zero. */
export const notIndexed = (row: RankedContract) => !row.complete && row.indexedBack === null;

/** The first hour (unix hours) a window counts, at `nowSeconds`; 0 for the whole history. */
export function windowStartHour(window: RankingWindow, nowSeconds: number): number {
  const hours = WINDOWS[window];
  return hours === null ? 0 : Math.floor(nowSeconds / HOUR) - hours + 1;
}

/** The shortest window that counts an event at `time` (unix seconds). */
export const windowHolding = (time: number, nowSeconds: number): RankingWindow =>
  RANKING_WINDOWS.find((window) => windowStartHour(window, nowSeconds) <= Math.floor(time / HOUR))!;

/**
 * A collection's volume in one currency, exact base units (ETH's counts the sales that
 * named no currency: the index stores them as ETH). The server ranks by it and the page
 * shows it, so the order and the figures agree.
 */
export function volumeIn(volumes: readonly Volume[], currency: string): bigint {
  return BigInt(volumes.find((volume) => volume.currency.address === currency)?.volume ?? 0);
}
