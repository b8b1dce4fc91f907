import { canonicalAddress } from './address';
import { EVENT_SORTS, type EventSortId, type WashMode } from './answers';
import {
  quoteParam,
  readAddress,
  readKinds,
  readSort,
  readTimeDisplay,
  Reasons,
  refused,
  searchReading,
  taken,
  type Reading,
  type SearchReading,
} from './param-reading';
import { ASSUMED_CURRENCY, CURRENCIES, exactAmount } from './price';
import { canonicalTokenId, parseTokenId } from './token-id';
import { formatSpanEnd, parseTimeSpan, spanProblem, type TimeSpan } from './time-span';
import type { EventKind } from './token-event';
import { formatKinds, formatSort, formatTimeDisplay, type SortState } from './view-state';

/**
 * A collection's events view as its URL states it: the filters and the sort the server
 * answers over the whole history, so a shared link shows anyone the same rows in the same
 * order. A value the view cannot take is left out, saying why (`readEventView`); the
 * canonical search leaves defaults out and keeps a fixed key order.
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
  /** One token, its id in decimal. */
  token: string | null;
  /**
   * Sale prices from and up to (both included), base units of the view's currency, in
   * decimal: a range needs one currency, as prices in different ones are never compared.
   */
  minPrice: string | null;
  maxPrice: string | null;
}

export type ViewWash = Exclude<WashMode, 'include'>;

const MARKETPLACE_MAX = 100;
// The server refuses control characters in a name (PostgreSQL holds no NUL in text).
const CONTROL = /\p{Cc}/u;
// Base units as the query API takes them: digits only.
const UNITS = /^[0-9]{1,78}$/;

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

function readCurrency(value: string | null): Reading<string | null> {
  const currency = parseCurrency(value);
  return currency || !value
    ? taken(currency)
    : refused(
        null,
        `${quoteParam('currency', value)} is no currency (${CURRENCIES.map((c) => c.symbol).join(', ')}, none, or a currency’s 0x address): sales in every currency are shown.`,
      );
}

/** `exclude` or `only`; anything else counts flagged sales with the others. */
function readWash(value: string | null): Reading<ViewWash | null> {
  if (!value || value === 'include') return taken(null);
  if (value === 'exclude' || value === 'only') return taken(value);
  return refused(
    null,
    `${quoteParam('wash', value)} is no choice of flagged sales (exclude or only): flagged sales are counted with the others.`,
  );
}

function readMarketplace(value: string | null): Reading<string | null> {
  const name = value?.trim() || null;
  if (name === null) return taken(null);
  if (name.length <= MARKETPLACE_MAX && !CONTROL.test(name)) return taken(name);
  return refused(
    null,
    `${quoteParam('marketplace', value!)} is no marketplace’s name (at most ${MARKETPLACE_MAX} characters, no control characters): every marketplace is shown.`,
  );
}

function readToken(value: string | null): Reading<string | null> {
  if (!value) return taken(null);
  const id = parseTokenId(value);
  return id.ok
    ? taken(canonicalTokenId(value))
    : refused(
        null,
        `${quoteParam('token', value)} is not a token id: ${id.error} Every token is shown.`,
      );
}

function readUnits(key: string, value: string | null): Reading<bigint | null> {
  if (!value) return taken(null);
  return UNITS.test(value)
    ? taken(BigInt(value))
    : refused(
        null,
        `${quoteParam(key, value)} is not a price in base units (digits only; 0.5 ETH is 500000000000000000): the price range was left out.`,
      );
}

/** The price range: each end in base units, both only with one currency, min not above max. */
function readPriceRange(params: URLSearchParams, currency: string | null, reasons: Reasons) {
  const min = reasons.take(readUnits('minPrice', params.get('minPrice')));
  const max = reasons.take(readUnits('maxPrice', params.get('maxPrice')));
  const none = { minPrice: null, maxPrice: null };
  if (min === null && max === null) return none;
  if (currency === null) {
    reasons.add(
      'A price range needs one currency (currency=ETH, STRK, USDC…): prices in different currencies are never compared, so the price range was left out.',
    );
    return none;
  }
  if (min !== null && max !== null && min > max) {
    reasons.add(`“minPrice” (${min}) is above “maxPrice” (${max}): the price range was left out.`);
    return none;
  }
  return { minPrice: min?.toString() ?? null, maxPrice: max?.toString() ?? null };
}

/**
 * The unit a price range is typed in for the view's currency: a known currency's own
 * (sales naming none count as ETH), base units for a currency whose decimals are unknown;
 * null without one currency, where no range can be set.
 */
export function priceUnit(currency: string | null): { name: string; decimals: number } | null {
  if (currency === null) return null;
  if (currency === 'none')
    return { name: ASSUMED_CURRENCY.symbol, decimals: ASSUMED_CURRENCY.decimals };
  const known = CURRENCIES.find((c) => c.symbol === currency);
  return known
    ? { name: known.symbol, decimals: known.decimals }
    : { name: 'base units', decimals: 0 };
}

/** The view's price range in words, "0.5–2 ETH", "from 0.5 ETH", "up to 2 ETH"; null for none. */
export function formatPriceRange(view: EventView): string | null {
  const unit = priceUnit(view.currency);
  if (!unit || (view.minPrice === null && view.maxPrice === null)) return null;
  const amount = (units: string) => exactAmount(BigInt(units), unit.decimals);
  if (view.minPrice !== null && view.maxPrice !== null)
    return `${amount(view.minPrice)}–${amount(view.maxPrice)} ${unit.name}`;
  return view.minPrice !== null
    ? `from ${amount(view.minPrice)} ${unit.name}`
    : `up to ${amount(view.maxPrice!)} ${unit.name}`;
}

/** The view a link states, and why the values it cannot take were left out. */
export function readEventView(params: URLSearchParams): { view: EventView; reasons: Reasons } {
  const reasons = new Reasons();
  const from = params.get('from');
  const to = params.get('to');
  reasons.add(spanProblem(from, to));
  const currency = reasons.take(readCurrency(params.get('currency')));
  const view: EventView = {
    kinds: reasons.take(readKinds(params.get('kind'))),
    address: reasons.take(
      readAddress(
        'address',
        params.get('address'),
        'events of every sender and receiver are shown',
      ),
    ),
    span: parseTimeSpan(from, to),
    sort: reasons.take(readSort(params.get('sort'), EVENT_SORTS, 'newest first')),
    marketplace: reasons.take(readMarketplace(params.get('marketplace'))),
    currency,
    wash: reasons.take(readWash(params.get('wash'))),
    token: reasons.take(readToken(params.get('token'))),
    ...readPriceRange(params, currency, reasons),
  };
  return { view, reasons };
}

export const parseEventView = (params: URLSearchParams): EventView => readEventView(params).view;

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
    ['maxPrice', view.maxPrice],
    ['minPrice', view.minPrice],
    ['sort', urlSort(view.sort)],
    ['to', view.span && formatSpanEnd(view.span.to)],
    ['token', view.token],
    ['wash', view.wash],
  ];
  return entries.filter((entry): entry is [string, string] => entry[1] !== null);
}

/**
 * The canonical search of a collection's page: the view and the time display (`time=abs|rel`,
 * a reader's choice that travels with the link), and why values were left out. A URL
 * whose search differs is replaced by this one.
 */
export function readEventSearch(params: URLSearchParams): SearchReading {
  const { view, reasons } = readEventView(params);
  const time = formatTimeDisplay(reasons.take(readTimeDisplay(params.get('time'))));
  return searchReading(params, [...viewEntries(view), ['time', time]], reasons, EVENT_KEYS);
}

/** The view's filters: every one null is the whole history (`Reset filters`). */
const FILTER_KEYS = [
  'address',
  'currency',
  'from',
  'kind',
  'marketplace',
  'maxPrice',
  'minPrice',
  'to',
  'token',
  'wash',
];
export const NO_FILTERS: Record<string, null> = Object.fromEntries(
  FILTER_KEYS.map((key) => [key, null]),
);

/** Every key the page reads. */
const EVENT_KEYS = [...FILTER_KEYS, 'sort', 'time'];

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
