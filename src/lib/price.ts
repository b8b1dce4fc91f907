import { shortenHex } from './address';
import { fail, ok, type Parsed } from './result';
import type { TokenEvent } from './token-event';

/**
 * Sale prices as the service sends them (src/server/upstream/README.md): base units of the
 * currency, in decimal (older records) or `0x` + 64 hex digits (since October 2024), with
 * the currency's token contract when the marketplace names one. Read with `BigInt`, so
 * nothing passes through a float, and shown in the currency's own decimals.
 */
export interface Currency {
  symbol: string;
  decimals: number;
  address: string;
}

/** Starknet mainnet's token contracts, in the order a sort by price groups them. */
export const CURRENCIES: readonly Currency[] = [
  {
    symbol: 'ETH',
    decimals: 18,
    address: '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7',
  },
  {
    symbol: 'STRK',
    decimals: 18,
    address: '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d',
  },
  {
    symbol: 'USDC',
    decimals: 6,
    address: '0x053c91253bc9682c04929ca02ed00b3e423f6710d2ee7e0d5ebb06f3ecf368a8',
  },
];

const BY_ADDRESS = new Map(CURRENCIES.map((currency) => [currency.address, currency]));

/** A sale without a currency: the service's own marketplace API falls back to ETH. */
export const ASSUMED_CURRENCY = CURRENCIES[0]!;

export const ASSUMED_NOTE =
  'ETH*: the marketplace did not say the currency; ETH is assumed, as the service itself assumes, and the sale counts as ETH everywhere.';

/**
 * The one currency rule: the currency a sale counts in is the one it names, or ETH when
 * it names none (`assumed`). Every figure, sort and result counts such a sale as ETH; the
 * index stores it so (src/server/index/change-row.ts) and the browser reads prices so.
 */
export function saleCurrency(currencyAddress: string | undefined): {
  address: string;
  assumed: boolean;
} {
  return currencyAddress === undefined
    ? { address: ASSUMED_CURRENCY.address, assumed: true }
    : { address: currencyAddress, assumed: false };
}

export type Price =
  /** A currency we know, named by the record or (`assumed`) not named at all. */
  | { kind: 'known'; units: bigint; currency: Currency; assumed: boolean }
  /** A currency contract we do not know: its decimals are unknown, so only base units. */
  | { kind: 'unknown'; units: bigint; currencyAddress: string }
  /** Not a number in either format: shown as sent. */
  | { kind: 'unreadable'; raw: string };

export type PricedEvent = Pick<TokenEvent, 'price' | 'currencyAddress'>;

/** Base units from a decimal string or `0x` hex; null for anything else. */
export function parseBaseUnits(text: string): bigint | null {
  if (/^[0-9]{1,100}$/.test(text) || /^0x[0-9a-f]{1,64}$/i.test(text)) return BigInt(text);
  return null;
}

/** The price of a sale, or null when the event carries none. */
export function readPrice(event: PricedEvent): Price | null {
  if (event.price === undefined) return null;
  const units = parseBaseUnits(event.price);
  if (units === null) return { kind: 'unreadable', raw: event.price };
  const { address, assumed } = saleCurrency(event.currencyAddress);
  const currency = BY_ADDRESS.get(address);
  if (currency) return { kind: 'known', units, currency, assumed };
  return { kind: 'unknown', units, currencyAddress: address };
}

/** The exact amount in the currency, "1.25" for 1.25e18 base units at 18 decimals. */
export function exactAmount(units: bigint, decimals: number): string {
  const base = 10n ** BigInt(decimals);
  const fraction = (units % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction ? `${units / base}.${fraction}` : String(units / base);
}

// Longer whole parts are no price anyone pays; the bound keeps BigInt's input short.
const AMOUNT = /^([0-9]{1,40})(?:\.([0-9]*))?$|^\.([0-9]+)$/;

/**
 * An amount typed in a currency's own units ("0.5", "12", ".25") as exact base units,
 * never through a float; or why it is not one (a sign, a letter, more fraction digits
 * than the currency has).
 */
export function parseAmount(input: string, decimals: number, unit: string): Parsed<bigint> {
  const text = input.trim();
  const match = AMOUNT.exec(text);
  if (!match) {
    return fail(
      /^-/.test(text)
        ? 'A price is not below 0.'
        : `Enter an amount in ${unit}, digits with a point for a fraction, like 0.5.`,
    );
  }
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? match[3] ?? '';
  if (fraction.length > decimals) {
    return fail(
      decimals === 0
        ? `Enter a whole number of ${unit}.`
        : `${unit} has ${decimals} decimals: at most ${decimals} digits after the point.`,
    );
  }
  return ok(BigInt(whole + fraction.padEnd(decimals, '0')));
}

const grouped = new Intl.NumberFormat('en');
/** Fraction digits shown in a table; the exact amount is a hover (or the export) away. */
const SHOWN_DIGITS = 6;

/** "1,234.5", or "≈ 0.123457" when the amount has more digits than shown; never a float. */
export function formatAmount(units: bigint, decimals: number, digits = SHOWN_DIGITS): string {
  const exact = exactAmount(units, decimals);
  const [whole = '0', fraction = ''] = exact.split('.');
  const wholeText = grouped.format(BigInt(whole));
  if (fraction.length <= digits) return fraction ? `${wholeText}.${fraction}` : wholeText;
  const cut = fraction.slice(0, digits).replace(/0+$/, '');
  if (whole === '0' && cut === '') return `< 0.${'0'.repeat(digits - 1)}1`;
  return `≈ ${cut ? `${wholeText}.${cut}` : wholeText}`;
}

/** A currency's symbol as shown, "ETH*" when assumed (ASSUMED_NOTE says why). */
export const shownSymbol = (symbol: string, assumed: boolean) => (assumed ? `${symbol}*` : symbol);

/** The price in words: "1.25 STRK", "0.5 ETH*" (assumed), "12,500 base units of 0x0123…cdef". */
export function formatPrice(price: Price): string {
  switch (price.kind) {
    case 'known':
      return `${formatAmount(price.units, price.currency.decimals)} ${shownSymbol(price.currency.symbol, price.assumed)}`;
    case 'unknown':
      return `${grouped.format(price.units)} base units of ${shortenHex(price.currencyAddress)}`;
    case 'unreadable':
      return price.raw;
  }
}

/** "3" when a sale is of more than one copy; undefined for one (or none said). */
export function shownQuantity(quantity: string | undefined): string | undefined {
  return quantity !== undefined && quantity !== '1' ? quantity : undefined;
}

/**
 * What an export says of a price, every value an exact string: the amount in the
 * currency (empty when its decimals are unknown), the symbol, the currency's address
 * (ETH's when assumed), whether it was assumed, the base units in decimal, the quantity;
 * a price that is no number, as sent.
 */
export function priceExport(event: PricedEvent & Pick<TokenEvent, 'quantity'>) {
  const price = readPrice(event);
  if (price === null) return {};
  const common = { quantity: event.quantity };
  switch (price.kind) {
    case 'known':
      return {
        ...common,
        price_amount: exactAmount(price.units, price.currency.decimals),
        price_symbol: price.currency.symbol,
        currency_address: price.currency.address,
        currency_assumed: price.assumed ? 'yes' : 'no',
        price_base_units: price.units.toString(),
      };
    case 'unknown':
      return {
        ...common,
        currency_address: price.currencyAddress,
        currency_assumed: 'no',
        price_base_units: price.units.toString(),
      };
    case 'unreadable':
      return { ...common, price_as_sent: event.price };
  }
}

/**
 * A price's place in a sort by price: its currency's group (the known currencies in
 * their order, then unknown ones by address, then unreadable prices, then no price) and
 * its base units. Amounts are compared only within a group: base units of different
 * currencies are not comparable.
 */
interface PriceKey {
  group: number;
  address: string;
  units: bigint;
}

const UNKNOWN_GROUP = CURRENCIES.length;

function priceKey(event: PricedEvent): PriceKey {
  const price = readPrice(event);
  if (price === null) return { group: UNKNOWN_GROUP + 2, address: '', units: 0n };
  switch (price.kind) {
    case 'known':
      return { group: CURRENCIES.indexOf(price.currency), address: '', units: price.units };
    case 'unknown':
      return { group: UNKNOWN_GROUP, address: price.currencyAddress, units: price.units };
    case 'unreadable':
      return { group: UNKNOWN_GROUP + 1, address: '', units: 0n };
  }
}

/**
 * Events by price: grouped by currency (ETH, STRK, USDC, then unknown currencies, then
 * events without a price) in that order whichever the direction, and by amount within
 * each group, ascending or descending; ties keep their order.
 */
export function sortByPrice<T extends PricedEvent>(events: readonly T[], desc: boolean): T[] {
  const keys = events.map(priceKey);
  const direction = desc ? -1 : 1;
  const order = Array.from(events, (_event, index) => index);
  order.sort((a, b) => {
    const x = keys[a]!;
    const y = keys[b]!;
    if (x.group !== y.group) return x.group - y.group;
    if (x.address !== y.address) return x.address < y.address ? -1 : 1;
    if (x.units !== y.units) return direction * (x.units < y.units ? -1 : 1);
    return a - b;
  });
  return order.map((index) => events[index]!);
}
