import { z } from 'zod';
import { canonicalAddress } from '../../lib/address';
import { readEventView } from '../../lib/event-view';
import { matchRoute } from '../../lib/routes';
import { feedSource } from '../api/feeds';
import { contractAddress, eventsParams, filtersOf, problemOf, walletAddress } from '../api/params';
import type { EventFilters } from '../index/events-query';

/**
 * What a webhook listens for: its rule, checked when it is made. Each rule is evaluated on
 * the changes of hands an ingest adds (outbox.ts), never on a history read again or a
 * rebuild.
 */
const factor = z
  .number({ error: 'factor must be a number from 1 to 1000000.' })
  .min(1, 'factor must be a number from 1 to 1000000.')
  .max(1_000_000, 'factor must be a number from 1 to 1000000.')
  .describe('How many times the rolling median a sale must reach.');
// Odd, so that the median is one sale's price (as the sales chart's line, src/lib/rolling-median.ts).
const window = z
  .int({ error: 'window must be an odd whole number from 3 to 101.' })
  .min(3, 'window must be an odd whole number from 3 to 101.')
  .max(101, 'window must be an odd whole number from 3 to 101.')
  .refine((value) => value % 2 === 1, 'window must be an odd whole number from 3 to 101.')
  .default(25)
  .describe('How many earlier sales in the same currency the median is of (odd; 25).');

export const webhookRule = z.discriminatedUnion(
  'kind',
  [
    z
      .strictObject({
        kind: z.literal('view'),
        view: z
          .string()
          .max(2000)
          .describe(
            "A page's path and search, as its address bar shows it (`/contracts/0x…?kind=sale`): its new changes of hands.",
          ),
      })
      .describe('Every new change of hands a view of the app lists.'),
    z
      .strictObject({
        kind: z.literal('sale-above-median'),
        collection: contractAddress,
        factor,
        window,
      })
      .describe("A sale at least `factor` times the collection's rolling median in its currency."),
    z
      .strictObject({
        kind: z.literal('wallet'),
        wallet: walletAddress,
        collection: contractAddress.optional(),
      })
      .describe('A wallet sends or receives a token (in one collection, or any).'),
    z
      .strictObject({
        kind: z.literal('holders'),
        collection: contractAddress,
        threshold: z
          .int({ error: 'threshold must be a whole number from 1 to 1000000000.' })
          .min(1, 'threshold must be a whole number from 1 to 1000000000.')
          .max(1e9, 'threshold must be a whole number from 1 to 1000000000.')
          .describe('The number of holders crossed, either way.'),
      })
      .describe("The collection's holders reach `threshold`, or fall below it."),
    z
      .strictObject({ kind: z.literal('flagged-sale'), collection: contractAddress })
      .describe('A sale of the collection is flagged as a possible wash trade.'),
  ],
  { error: 'rule.kind must be view, sale-above-median, wallet, holders or flagged-sale.' },
);

export type WebhookRule = z.infer<typeof webhookRule>;

/** The changes of hands a view lists: its collection (or none: a wallet's) and its filters. */
export interface ViewFilters {
  collection: string | null;
  filters: EventFilters;
}

const EVENTS_API = /^\/collections\/(0x[0-9a-f]{64})\/events\?(.*)$/;
const WALLET_API = /^\/wallets\/(0x[0-9a-f]{64})\/events\?(.*)$/;
const TOKEN_API = /^\/collections\/(0x[0-9a-f]{64})\/tokens\/(\d+)$/;

/**
 * A view's filters, read as its feed reads the page (feeds.ts: the same view state and
 * query API parameters), or why it has none. A whole URL of the app is taken too.
 */
export function viewFilters(view: string): ViewFilters | string {
  let url: URL;
  try {
    url = new URL(view, 'http://view.invalid');
  } catch {
    return 'view must be a page of this app: its path and search (/contracts/0x…?kind=sale).';
  }
  const source = feedSource(url.pathname, url.searchParams);
  if (typeof source === 'string') return source;
  // The page leaves out what it cannot read and says why; a webhook is told at once.
  if (matchRoute(url.pathname) === 'contractEvents') {
    const [reason] = readEventView(url.searchParams).reasons.list;
    if (reason !== undefined) return reason;
  }
  const events = EVENTS_API.exec(source.api);
  if (events) {
    const params = new URLSearchParams(events[2]);
    // A page's size is the feed's, not the view's.
    params.delete('limit');
    const parsed = eventsParams.safeParse(Object.fromEntries(params));
    if (!parsed.success) return problemOf(parsed.error);
    return { collection: events[1]!, filters: filtersOf(parsed.data) };
  }
  const wallet = WALLET_API.exec(source.api);
  if (wallet) {
    const collection = new URLSearchParams(wallet[2]).get('collection');
    return {
      collection: collection ? canonicalAddress(collection) : null,
      filters: { address: wallet[1]! },
    };
  }
  const token = TOKEN_API.exec(source.api);
  if (token) return { collection: token[1]!, filters: { tokenId: token[2]! } };
  return 'view must be a collection, token or wallet page of this app.';
}

/** The collection a rule watches; null: every collection (a wallet's moves anywhere). */
export function ruleCollection(rule: WebhookRule): string | null {
  if (rule.kind === 'view') {
    const view = viewFilters(rule.view);
    return typeof view === 'string' ? null : view.collection;
  }
  return rule.collection ?? null;
}

/** What `POST /api/webhooks` takes: where to deliver, and what to deliver. */
export const webhookRequest = z.strictObject({
  url: z
    .string({ error: 'url must be an http:// or https:// URL.' })
    .max(2000, 'url must be at most 2,000 characters.')
    .describe('Where deliveries are posted: an https:// (or http://) URL.'),
  rule: webhookRule,
});
