import { z } from 'zod';
import type { SampleKind } from '../../lib/api-document';
import { pageQuery } from '../proxy/route-match';
import { walletLiveParams, WALLET_LIVE_COLLECTIONS } from '../live/wallet-stream';
import { webhookRequest } from '../webhooks/rules';
import {
  alsoHoldParams,
  compareExportParams,
  compareParams,
  contractAddress,
  deliveriesParams,
  emptyParams,
  eventsParams,
  exportParams,
  holdersExportParams,
  holdersParams,
  lookupParams,
  liveParams,
  lookupValue,
  marketParams,
  oembedParams,
  overlapParams,
  overviewParams,
  rankingParams,
  seriesParams,
  taxYearParams,
  tokenParam,
  transactionHash,
  viewFiguresParams,
  walletAddress,
  walletCollectionParams,
  walletEventsParams,
  webhookId,
} from './params';

/**
 * Every route the server answers under `/api/`, with the schemas that check its
 * parameters: the query API mounts its routes from this table (`honoPath`), and the API
 * document (openapi.ts) is made from it, so a route cannot be answered and not documented.
 */
export interface ApiRouteSpec {
  /** OpenAPI's form (`/api/collections/{address}`); `honoPath` gives the one Hono mounts. */
  path: string;
  /** GET (and so HEAD) unless said. */
  method?: 'post' | 'delete';
  summary: string;
  group:
    | 'Collections'
    | 'Wallets'
    | 'Lookup'
    | 'Live'
    | 'Feeds'
    | 'Embeds'
    | "The service's lists"
    | 'Pictures'
    | 'Webhooks'
    | 'Server';
  query?: z.ZodType;
  /** The JSON body it takes, checked by this schema. */
  body?: z.ZodType;
  /** Only with the operator's token (`Authorization: Bearer <WEBHOOK_TOKEN>`). */
  token?: true;
  /** Each path parameter's schema and what an example of it is (docs page, tests). */
  pathParams?: Record<string, { schema: z.ZodType; sample: SampleKind }>;
  /** A required query parameter's kind of example, where the route answers nothing without it. */
  querySamples?: Record<string, SampleKind>;
  answer: AnswerSpec;
  /** Error statuses it may answer, each with the one error body. */
  errors: readonly number[];
}

// What an example of a parameter is: the docs page fills it from this server's data.
export type { SampleKind };

export type AnswerSpec =
  | { kind: 'json'; description: string }
  | { kind: 'file'; types: readonly string[]; description: string }
  /** Server-Sent Events (`text/event-stream`), resumed after `Last-Event-ID`. */
  | { kind: 'stream'; description: string };

const collection = { schema: contractAddress, sample: 'collection' } as const;
const wallet = { schema: walletAddress, sample: 'wallet' } as const;
const token = { schema: tokenParam, sample: 'token' } as const;

// The errors every route may answer: the per-client limit, a bug of ours, the server busy.
const SERVER = [429, 500, 503] as const;
const CHECKED = [400, ...SERVER] as const;
const A_COLLECTION = [400, 404, ...SERVER] as const;
const FROM_THE_SERVICE = [400, ...SERVER, 502, 504] as const;
// Webhooks: off (404) without WEBHOOK_TOKEN, 401 without it in the request.
const WITH_TOKEN = [400, 401, 404, ...SERVER] as const;
const webhook = { schema: webhookId, sample: 'webhook' } as const;

// The pages a collection's preview card is drawn for besides its events (preview/targets.ts).
const previewPage = z.enum(['holders', 'market']).describe('holders or market');

const json = (description: string): AnswerSpec => ({ kind: 'json', description });
// A link preview's picture (src/server/preview): drawn from the index alone, never the service.
const PREVIEW_CARD = {
  group: 'Pictures',
  answer: { kind: 'file', types: ['image/png'], description: '1200×630, cached.' },
  errors: [400, 429, 503],
} as const;

// A view's feed (feeds.ts): the page's path after `/api/feed`, and the page's own search,
// read as the page reads it (a value the page would leave out is left out).
const ATOM_FEED = {
  group: 'Feeds',
  answer: {
    kind: 'file',
    types: ['application/atom+xml'],
    description: "The view's 50 newest changes of hands, newest first; ids never change.",
  },
  errors: A_COLLECTION,
} as const;

export const API_ROUTES = {
  collections: {
    path: '/api/collections',
    group: 'Collections',
    summary: 'Collections ranked by activity in a window',
    query: rankingParams,
    answer: json(
      "`collections` ranked, `next` (the cursor of the next page or null), and of the whole window: `active`, `newest`, `nearest`, `washSales`, `washExcluded`; `faults` and `replicaLagSeconds`, as a collection's coverage gives them.",
    ),
    errors: CHECKED,
  },
  collection: {
    path: '/api/collections/{address}',
    group: 'Collections',
    summary: "A collection's name and whole-history figures",
    query: overviewParams,
    pathParams: { address: collection },
    answer: json('Name, symbol, image, type; `figures` of the whole history; `coverage`.'),
    errors: A_COLLECTION,
  },
  collectionEvents: {
    path: '/api/collections/{address}/events',
    group: 'Collections',
    summary: "A collection's changes of hands, filtered and sorted over its whole history",
    query: eventsParams,
    pathParams: { address: collection },
    answer: json('`events`, `next`, `order` in words, `coverage`.'),
    errors: A_COLLECTION,
  },
  collectionSeries: {
    path: '/api/collections/{address}/series',
    group: 'Collections',
    summary: 'Counts per kind and volume per currency, bucket by bucket',
    query: seriesParams,
    pathParams: { address: collection },
    answer: json('`interval`, `buckets` (counts per kind, volume per currency), `coverage`.'),
    errors: A_COLLECTION,
  },
  collectionFigures: {
    path: '/api/collections/{address}/figures',
    group: 'Collections',
    summary: "A filtered view's own figures",
    query: viewFiguresParams,
    pathParams: { address: collection },
    answer: json(
      '`figures` (events, counts per kind, sales, priced, volume, washSales, washVolume), `coverage`.',
    ),
    errors: A_COLLECTION,
  },
  collectionMarket: {
    path: '/api/collections/{address}/market',
    group: 'Collections',
    summary: "A collection's market: top sales, marketplaces, mints, time to a first sale",
    query: marketParams,
    pathParams: { address: collection },
    answer: json(
      '`topSales`, `sales`, `volume`, `marketplaces`, `minters`, `firstSale`, `from`, `to`, `counted`, `coverage`.',
    ),
    errors: A_COLLECTION,
  },
  collectionHolders: {
    path: '/api/collections/{address}/holders',
    group: 'Collections',
    summary: 'Holders now or as of a time, largest first',
    query: holdersParams,
    pathParams: { address: collection },
    answer: json(
      '`holders`, `totalHolders`, `tokensHeld`, `knownBurned`, `distribution`, `top10Share`, `asOf`, `next`, `counted`, `coverage`.',
    ),
    errors: A_COLLECTION,
  },
  holdersExport: {
    path: '/api/collections/{address}/holders/export',
    group: 'Collections',
    summary: 'Every holder as a CSV file',
    query: holdersExportParams,
    pathParams: { address: collection },
    answer: {
      kind: 'file',
      types: ['text/csv'],
      description: 'Streamed: owner, tokens, since_utc, as_of_utc; largest first.',
    },
    errors: A_COLLECTION,
  },
  holdersAlsoHold: {
    path: '/api/collections/{address}/holders/also-hold',
    group: 'Collections',
    summary: "The collections a collection's holders hold most, now",
    query: alsoHoldParams,
    pathParams: { address: collection },
    answer: json(
      '`holders` (now), `collections` (address, name, symbol, `inCommon`, `share` of these holders, `holders` of theirs, `theirShare`, `tokens`), most in common first; `counted`, `coverage`.',
    ),
    errors: A_COLLECTION,
  },
  alsoHoldExport: {
    path: '/api/collections/{address}/holders/also-hold/export',
    group: 'Collections',
    summary: 'Every collection its holders also hold, as a CSV file',
    query: emptyParams,
    pathParams: { address: collection },
    answer: {
      kind: 'file',
      types: ['text/csv'],
      description:
        'address, name, symbol, holders_in_common, share, their_holders, their_share, tokens, as_of_utc; most in common first.',
    },
    errors: A_COLLECTION,
  },
  holdersOverlap: {
    path: '/api/collections/{address}/holders/overlap/{other}',
    group: 'Collections',
    summary: 'The wallets that hold two collections now',
    query: overlapParams,
    pathParams: { address: collection, other: collection },
    answer: json(
      '`other` (address, name, symbol), `holders`, `otherHolders`, `inCommon`, `share`, `otherShare`, `rows` (owner, tokens, otherTokens; most tokens first), `next`, `counted`, `coverage`, `otherCoverage`.',
    ),
    errors: A_COLLECTION,
  },
  overlapExport: {
    path: '/api/collections/{address}/holders/overlap/{other}/export',
    group: 'Collections',
    summary: 'The wallets that hold both, as a CSV file',
    query: emptyParams,
    pathParams: { address: collection, other: collection },
    answer: {
      kind: 'file',
      types: ['text/csv'],
      description: 'Streamed: owner, tokens, other_tokens, as_of_utc; most tokens first.',
    },
    errors: A_COLLECTION,
  },
  holdersCompare: {
    path: '/api/collections/{address}/holders/compare',
    group: 'Collections',
    summary: 'Holders and figures at two moments: who joined, left, grew or shrank',
    query: compareParams,
    pathParams: { address: collection },
    answer: json(
      '`from`, `to`, `toNow`, `figures` at each (holders figures and `activity` up to then), `changed` (joined, left, grew, shrank, stayed), `changes` (owner, from, to, change; largest first), `next`, `counted`, `coverage`.',
    ),
    errors: A_COLLECTION,
  },
  compareExport: {
    path: '/api/collections/{address}/holders/compare/export',
    group: 'Collections',
    summary: 'The comparison of two moments as a CSV file: its holders or its figures',
    query: compareExportParams,
    pathParams: { address: collection },
    answer: {
      kind: 'file',
      types: ['text/csv'],
      description:
        'part=holders: owner, tokens_from, tokens_to, change, from_utc, to_utc; part=figures: figure, currency, from, to.',
    },
    errors: A_COLLECTION,
  },
  token: {
    path: '/api/collections/{address}/tokens/{tokenId}',
    group: 'Collections',
    summary: "A token's history, holder and chain of custody",
    query: emptyParams,
    pathParams: { address: collection, tokenId: token },
    answer: json(
      '`owner`, `since`, `minted`, `burned`, `events` oldest first, `custody`, `tokenList`, `coverage`.',
    ),
    errors: A_COLLECTION,
  },
  collectionExport: {
    path: '/api/collections/{address}/export',
    group: 'Collections',
    summary: "A collection's filtered events as one CSV or JSON file",
    query: exportParams,
    pathParams: { address: collection },
    answer: {
      kind: 'file',
      types: ['text/csv', 'application/json'],
      description: 'The whole query streamed at the pace the client reads, exact strings.',
    },
    errors: A_COLLECTION,
  },
  wallet: {
    path: '/api/wallets/{address}',
    group: 'Wallets',
    summary: 'A wallet in every collection indexed',
    query: emptyParams,
    pathParams: { address: wallet },
    answer: json(
      "`collections` (holds, events, bought and sold per currency), `covers`; `faults` and `replicaLagSeconds`, as a collection's coverage gives them.",
    ),
    errors: CHECKED,
  },
  walletEvents: {
    path: '/api/wallets/{address}/events',
    group: 'Wallets',
    summary: "A wallet's changes of hands, newest first",
    query: walletEventsParams,
    pathParams: { address: wallet },
    answer: json('`events`, `next`.'),
    errors: CHECKED,
  },
  walletCollection: {
    path: '/api/wallets/{address}/collections/{contract}',
    group: 'Wallets',
    summary: 'One wallet inside one collection',
    query: walletCollectionParams,
    pathParams: { address: wallet, contract: collection },
    answer: json(
      '`held` over time, counts, bought and sold, `results` per currency, `flips`, `counterparties`, `heldTokens`, `counted`, `coverage`.',
    ),
    errors: A_COLLECTION,
  },
  walletTaxYear: {
    path: '/api/wallets/{address}/tax-year',
    group: 'Wallets',
    summary: 'The tokens a wallet sold in a year: bought when and for what, sold, held, result',
    query: taxYearParams,
    pathParams: { address: wallet },
    answer: json(
      '`sales` oldest first (collection, tokenId, `acquired` how, when and price or null when unknown, `sold`, `heldDays`, `result` or null and `noResult` why), `totals` per currency, `gross`, `counted`, `covers`.',
    ),
    errors: CHECKED,
  },
  walletTaxYearExport: {
    path: '/api/wallets/{address}/tax-year/export',
    group: 'Wallets',
    summary: 'The tokens a wallet sold in a year as a CSV file',
    query: taxYearParams,
    pathParams: { address: wallet },
    answer: {
      kind: 'file',
      types: ['text/csv'],
      description:
        'One line per token sold, oldest first, amounts exact in their currency: collection, token_id, acquired_how, acquired_at_utc, cost, sold_at_utc, proceeds, currency, held_days, result, note. Gross: fees are not known.',
    },
    errors: CHECKED,
  },
  lookup: {
    path: '/api/lookup/{value}',
    group: 'Lookup',
    summary: 'What a whole 0x value or token id is to the index',
    query: lookupParams,
    pathParams: { value: { schema: lookupValue, sample: 'collection' } },
    answer: json('`value`, `matches` (collection, wallet, transaction, token).'),
    errors: CHECKED,
  },
  transaction: {
    path: '/api/transactions/{hash}',
    group: 'Lookup',
    summary: 'Every change of hands of a transaction',
    query: emptyParams,
    pathParams: { hash: { schema: transactionHash, sample: 'transaction' } },
    answer: json('`hash`, `events` oldest first, the `collections` named.'),
    errors: CHECKED,
  },
  serviceContracts: {
    path: '/api/v1/contracts',
    group: "The service's lists",
    summary: "The service's contracts list, as it sends it, from the record log",
    query: pageQuery,
    answer: json("The service's page: `result`, `cursor`; `X-Next-Cursor` says the next."),
    errors: FROM_THE_SERVICE,
  },
  serviceEvents: {
    path: '/api/v1/events/{address}',
    group: "The service's lists",
    summary: "The service's list of a contract's events, newest first, from the record log",
    query: pageQuery,
    pathParams: { address: collection },
    answer: json("The service's page: `result`, `cursor`."),
    errors: FROM_THE_SERVICE,
  },
  serviceTokenEvents: {
    path: '/api/v1/events/{address}/{tokenId}',
    group: "The service's lists",
    summary: "The service's list of a token's events, from the record log",
    query: pageQuery,
    pathParams: { address: collection, tokenId: token },
    answer: json("The service's page: `result`, `cursor`."),
    errors: FROM_THE_SERVICE,
  },
  liveCollection: {
    path: '/api/live/collections/{address}',
    group: 'Live',
    summary: "A collection's new changes of hands as they are read (Server-Sent Events)",
    query: liveParams,
    pathParams: { address: collection },
    answer: {
      kind: 'stream',
      description:
        'Events `change` (one row each, as in `events`), `ready` (the position it starts at) and `reset` (too far behind: load the view again); each id is the position after it, for `Last-Event-ID`.',
    },
    errors: A_COLLECTION,
  },
  liveToken: {
    path: '/api/live/collections/{address}/tokens/{tokenId}',
    group: 'Live',
    summary: "A token's new changes of hands as they are read (Server-Sent Events)",
    query: liveParams,
    pathParams: { address: collection, tokenId: token },
    answer: {
      kind: 'stream',
      description: "As the collection's stream, with this token's rows alone.",
    },
    errors: A_COLLECTION,
  },
  liveCollections: {
    path: '/api/live/collections',
    group: 'Live',
    summary: 'Which collections have new changes of hands, as they are read (Server-Sent Events)',
    query: emptyParams,
    answer: {
      kind: 'stream',
      description:
        'Events `changed`, at most one a second: `collections`, the addresses with new rows since the last. Reads nothing itself: what the index takes in, whoever read it.',
    },
    errors: [400, ...SERVER],
  },
  liveWallet: {
    path: '/api/live/wallets/{address}',
    group: 'Live',
    summary: "A wallet's new changes of hands as they are read (Server-Sent Events)",
    query: walletLiveParams,
    pathParams: { address: wallet },
    answer: {
      kind: 'stream',
      description: `As a collection's stream, with the rows from or to the wallet in the ${WALLET_LIVE_COLLECTIONS} collections it changed hands in most lately; each id is every one's position.`,
    },
    errors: CHECKED,
  },
  collectionFeed: {
    path: '/api/feed/contracts/{address}',
    summary: "A collection's events view as an Atom feed, with the view's own search",
    pathParams: { address: collection },
    ...ATOM_FEED,
  },
  holdersFeed: {
    path: '/api/feed/contracts/{address}/holders',
    summary: "A collection's holders page as an Atom feed: every change of hands",
    pathParams: { address: collection },
    ...ATOM_FEED,
  },
  marketFeed: {
    path: '/api/feed/contracts/{address}/market',
    summary: "A collection's market page as an Atom feed: the sales of its span",
    pathParams: { address: collection },
    ...ATOM_FEED,
  },
  tokenFeed: {
    path: '/api/feed/contracts/{address}/tokens/{tokenId}',
    summary: "A token's history as an Atom feed",
    pathParams: { address: collection, tokenId: token },
    ...ATOM_FEED,
  },
  walletFeed: {
    path: '/api/feed/addresses/{address}',
    summary: "A wallet's changes of hands as an Atom feed (`collection` too)",
    pathParams: { address: wallet },
    ...ATOM_FEED,
  },
  oembed: {
    path: '/api/oembed',
    group: 'Embeds',
    summary:
      "oEmbed: the frame that shows a collection's activity chart or latest events on another site",
    query: oembedParams,
    querySamples: { url: 'collection-page' },
    answer: json(
      'oEmbed 1.0, type `rich`: `html` (the iframe of the embedded page), `width`, `height`, `title`, `provider_name`, `provider_url`, `cache_age`.',
    ),
    errors: A_COLLECTION,
  },
  collectionPreview: {
    path: '/api/preview/collections/{address}.png',
    summary: "A collection's link preview card",
    pathParams: { address: collection },
    ...PREVIEW_CARD,
  },
  collectionPagePreview: {
    path: '/api/preview/collections/{address}/{page}.png',
    summary: "The link preview card of a collection's holders or market",
    pathParams: {
      address: collection,
      page: { schema: previewPage, sample: 'preview-page' },
    },
    ...PREVIEW_CARD,
  },
  tokenPreview: {
    path: '/api/preview/collections/{address}/tokens/{tokenId}.png',
    summary: "A token's link preview card",
    pathParams: { address: collection, tokenId: token },
    ...PREVIEW_CARD,
  },
  walletPreview: {
    path: '/api/preview/wallets/{address}.png',
    summary: "A wallet's link preview card",
    pathParams: { address: wallet },
    ...PREVIEW_CARD,
  },
  collectionImage: {
    path: '/api/images/contracts/{address}',
    group: 'Pictures',
    summary: "A collection's image, fetched by this server from the host it names",
    pathParams: { address: collection },
    answer: {
      kind: 'file',
      types: ['image/*'],
      description: 'The picture with its sniffed type; 404 when none can be shown.',
    },
    errors: [400, 404, 429],
  },
  createWebhook: {
    path: '/api/webhooks',
    method: 'post',
    group: 'Webhooks',
    summary: 'Make a webhook: a URL and the rule whose events are posted to it, signed',
    body: webhookRequest,
    token: true,
    answer: json(
      '201: `id`, `url`, `rule`, `createdAt`, and `secret`, shown this once: the key of the `webhook-signature` each delivery carries.',
    ),
    errors: WITH_TOKEN,
  },
  webhooks: {
    path: '/api/webhooks',
    group: 'Webhooks',
    summary: 'Every webhook, with its deliveries counted',
    token: true,
    answer: json(
      '`webhooks`: `id`, `url`, `rule`, `createdAt`, `deliveries` (pending, delivered, failed).',
    ),
    errors: WITH_TOKEN,
  },
  webhookDeliveries: {
    path: '/api/webhooks/{id}/deliveries',
    group: 'Webhooks',
    summary: "A webhook's delivery log, newest first",
    query: deliveriesParams,
    pathParams: { id: webhook },
    token: true,
    answer: json(
      '`deliveries`: `id` (the `webhook-id` header), `event`, `status` (pending, delivered, failed), `attempts`, `createdAt`, `nextAttemptAt`, `deliveredAt`, `lastStatus`, `lastError`, `body`.',
    ),
    errors: WITH_TOKEN,
  },
  deleteWebhook: {
    path: '/api/webhooks/{id}',
    method: 'delete',
    group: 'Webhooks',
    summary: 'Delete a webhook and its delivery log',
    pathParams: { id: webhook },
    token: true,
    answer: json('`deleted`: the id.'),
    errors: WITH_TOKEN,
  },
  meta: {
    path: '/api/meta',
    group: 'Server',
    summary: 'Which service the data comes from',
    answer: json('`source` (sample or real), `description`, `images` (served or not).'),
    errors: SERVER,
  },
  openApi: {
    path: '/api/openapi.json',
    group: 'Server',
    summary: 'This document',
    answer: json('OpenAPI 3.1.'),
    errors: SERVER,
  },
} as const satisfies Record<string, ApiRouteSpec>;

export type ApiRouteName = keyof typeof API_ROUTES;

/** The path as Hono mounts it: `{name}` → `:name`. */
export const honoPath = (route: Pick<ApiRouteSpec, 'path'>) =>
  route.path.replace(/\{([^}]+)\}/g, ':$1');
