/**
 * Every query key of the app in one place. A key names everything its query fetches
 * with: a list's key names the resource and the view's parameters (as the query API's
 * search string), and each later page's cursor is its page param. Infinite lists and
 * single queries never share a key (their cached data have different shapes).
 */
export const queryKeys = {
  meta: () => ['meta'] as const,
  /** The server's API document, the examples filled into it, one example's answer. */
  apiDocument: () => ['api-document'] as const,
  /** Every webhook query: to refresh them all (a token given again, a webhook made or deleted). */
  webhooksAll: () => ['webhooks'] as const,
  /** The webhooks, as the token held in the tab may see them; another token is another answer. */
  webhooks: (token: string) => ['webhooks', token, 'list'] as const,
  webhookDeliveries: (token: string, id: string) => ['webhooks', token, 'deliveries', id] as const,
  apiSamples: () => ['api-document', 'samples'] as const,
  apiSampleAnswer: (url: string) => ['api-document', 'answer', url] as const,
  /** Collections ranked: the ranking's search string (window, sort, currency). */
  rankings: (search: string) => ['collections', 'ranking', search] as const,
  /** One collection's identity, figures and coverage, with or without flagged sales. */
  collection: (address: string, excludeWash = false) =>
    [
      ...queryKeys.collectionOverviews(address),
      excludeWash ? 'wash=exclude' : 'wash=include',
    ] as const,
  /** Both of a collection's overviews (with and without flagged sales): to refresh them. */
  collectionOverviews: (address: string) => ['collection', address, 'overview'] as const,
  /** Every query of one kind about a collection (events, series, holders…): to refresh them all. */
  collectionAll: (address: string, kind: 'events' | 'series' | 'holders' | 'market') =>
    ['collection', address, kind] as const,
  /** A collection's events under a view (its filters and sort as a search string). */
  collectionEvents: (address: string, search: string) =>
    [...queryKeys.collectionAll(address, 'events'), search] as const,
  /** A collection's time series under a view. */
  collectionSeries: (address: string, search: string) =>
    [...queryKeys.collectionAll(address, 'series'), search] as const,
  /** A view's own figures: beside the series, so what refreshes one refreshes both. */
  collectionViewFigures: (address: string, search: string) =>
    [...queryKeys.collectionAll(address, 'series'), 'figures', search] as const,
  /** A collection's holders (now, or as of a time). */
  collectionHolders: (address: string, search: string) =>
    [...queryKeys.collectionAll(address, 'holders'), search] as const,
  /** A collection's market (over the whole history, or a span). */
  collectionMarket: (address: string, search: string) =>
    [...queryKeys.collectionAll(address, 'market'), search] as const,
  /** One token's history and custody. */
  token: (address: string, tokenId: string) => ['collection', address, 'token', tokenId] as const,
  /** A wallet across the indexed collections. */
  wallet: (address: string) => ['wallet', address, 'collections'] as const,
  /** A wallet inside one collection: its figures, holdings over time, results, counterparties. */
  walletCollection: (address: string, collection: string) =>
    ['wallet', address, 'collection', collection] as const,
  /** A wallet's changes of hands, newest first, in one collection or all (null). */
  walletEvents: (address: string, collection: string | null) =>
    ['wallet', address, 'events', collection] as const,
  /** The tokens a wallet sold in a UTC year. */
  walletTaxYear: (address: string, year: number) => ['wallet', address, 'tax-year', year] as const,
  /** Every year of the wallet's (what a new change of hands may change). */
  walletTaxYears: (address: string) => ['wallet', address, 'tax-year'] as const,
  /** What a whole value is to the index, with the collection in view or not. */
  lookup: (value: string, collection: string | null) => ['lookup', value, collection] as const,
  /** A transaction's changes of hands across collections. */
  transaction: (hash: string) => ['transaction', hash] as const,
  /** Every collection the server knows, by name (the lookup box's directory). */
  contracts: () => ['collections', 'directory'] as const,
};
