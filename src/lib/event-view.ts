import { canonicalAddress } from './address';
import { EVENT_SORTS, type EventSortId, type WashMode } from './answers';
import { CURRENCIES } from './price';
import { formatSpanEnd, parseTimeSpan, type TimeSpan } from './time-span';
import type { EventKind } from './token-event';
import {
  canonicalSearch,
  formatKinds,
  formatSort,
  formatTimeDisplay,
  parseKinds,
  parseSort,
  parseTimeDisplay,
  type SortState,
} from './view-state';

/**
 * A collection's events view as its URL states it: the filters and the sort the server
 * answers over the whole history, so a shared link shows anyone the same rows in the same
 * order. Parsing is forgiving (an unknown value falls back to the default); the canonical
 * search leaves defaults out and keeps a fixed key order.
 */
export interface EventView {
  kinds: EventKind[];
  /** Sender or receiver. */
  address: string | null;
  span: TimeSpan | null;
  /** Null: newest first. */
  sort: SortState<EventSortId> | null;
  marketplace: string | null;
  /** A currency's symbol (ETH, STRK, USDC), a currency address, or `none`. */
  currency: string | null;
  /**
   * Sales flagged as wash trades left out of every figure, chart, row and export
   * (`exclude`), or they alone (`only`); null: counted with the others.
   */
  wash: ViewWash | null;
}

export type ViewWash = Exclude<WashMode, 'include'>;

const MARKETPLACE_MAX = 100;

/** ETH, STRK, USDC as their symbols; `none`; any other address canonical; else null. */
export function parseCurrency(value: string | null): string | null {
  if (!value) return null;
  const lower = value.trim().toLowerCase();
  if (lower === 'none') return 'none';
  const known = CURRENCIES.find(
    (currency) => currency.symbol.toLowerCase() === lower || currency.address === lower,
  );
  if (known) return known.symbol;
  return canonicalAddress(lower);
}

/** `exclude` or `only`; anything else counts flagged sales with the others. */
const parseViewWash = (value: string | null): ViewWash | null =>
  value === 'exclude' || value === 'only' ? value : null;

export function parseEventView(params: URLSearchParams): EventView {
  const marketplace = params.get('marketplace')?.trim() || null;
  return {
    kinds: parseKinds(params.get('kind')),
    address: canonicalAddress(params.get('address') ?? ''),
    span: parseTimeSpan(params.get('from'), params.get('to')),
    sort: parseSort(params.get('sort'), EVENT_SORTS),
    marketplace: marketplace && marketplace.length <= MARKETPLACE_MAX ? marketplace : null,
    currency: parseCurrency(params.get('currency')),
    wash: parseViewWash(params.get('wash')),
  };
}

/** The server's order when the view names none: newest first. */
export const NEWEST_FIRST: SortState<EventSortId> = { id: 'time', desc: true };

/** The default sort (newest first) is no sort in the URL. */
const urlSort = (sort: EventView['sort']) =>
  sort && !(sort.id === NEWEST_FIRST.id && sort.desc === NEWEST_FIRST.desc)
    ? formatSort(sort)
    : null;

/** The view's filters and sort as URL entries, defaults left out, in a fixed order. */
function viewEntries(view: EventView): [string, string][] {
  const entries: [string, string | null][] = [
    ['address', view.address],
    ['currency', view.currency],
    ['from', view.span && formatSpanEnd(view.span.from)],
    ['kind', formatKinds(view.kinds)],
    ['marketplace', view.marketplace],
    ['sort', urlSort(view.sort)],
    ['to', view.span && formatSpanEnd(view.span.to)],
    ['wash', view.wash],
  ];
  return entries.filter((entry): entry is [string, string] => entry[1] !== null);
}

/**
 * The canonical search string of a collection's page: the view and the time display
 * (`time=abs|rel`, a reader's choice that travels with the link). A URL whose search
 * differs is replaced by this one.
 */
export function canonicalEventSearch(params: URLSearchParams): string {
  return canonicalSearch([
    ...viewEntries(parseEventView(params)),
    ['time', formatTimeDisplay(parseTimeDisplay(params.get('time')))],
  ]);
}

/** Whether the view narrows the events (any filter on). */
export const isFiltered = (view: EventView) => viewEntries({ ...view, sort: null }).length > 0;

/**
 * The view as the query API's parameters (`/events`, `/series`, `/export` share them);
 * the sort only where asked, as the series has none. The overview takes `wash` alone.
 */
export function viewApiParams(view: EventView, withSort: boolean): URLSearchParams {
  const params = new URLSearchParams(viewEntries({ ...view, sort: null }));
  if (withSort && view.sort) params.set('sort', formatSort(view.sort)!);
  return params;
}
