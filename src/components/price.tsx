import {
  ASSUMED_NOTE,
  exactAmount,
  formatAmount,
  readPrice,
  shownQuantity,
  shownSymbol,
} from '../lib/price';
import type { TokenEvent } from '../lib/token-event';
import { Address } from './address';
import { Hint } from './hint';

const QUANTITY_NOTE =
  'Copies sold. Whether the price is per copy or for all of them, the service does not say.';

type PricedEvent = Pick<TokenEvent, 'price' | 'currencyAddress' | 'quantity'> & {
  /** The index's word for a price that is no number in either format: shown as sent. */
  priceText?: string;
};

/** The "*" of "ETH*": the sale named no currency; its note says ETH is assumed. */
export function AssumedMark() {
  return <Hint note={ASSUMED_NOTE}>*</Hint>;
}

/**
 * A sale's price in its currency ("1.25 STRK", the exact amount in `title`); "ETH*" when
 * the marketplace named no currency (counted as ETH, the mark's note says so); base units
 * and the currency's address when the currency is not one we know (its decimals are
 * unknown; in a table's narrow column, the amount short and the address in a note); the
 * quantity when more than one copy changed hands (per copy or for all, the service does
 * not say).
 */
export function Price({ event, narrow = false }: { event: PricedEvent; narrow?: boolean }) {
  const price = readPrice(
    event.price === undefined && event.priceText !== undefined
      ? { ...event, price: event.priceText }
      : event,
  );
  if (price === null) return <span className="muted">—</span>;
  const quantity = shownQuantity(event.quantity);
  return (
    <>
      {price.kind === 'known' ? (
        <span
          title={`${exactAmount(price.units, price.currency.decimals)} ${shownSymbol(price.currency.symbol, price.assumed)}`}
        >
          {formatAmount(price.units, price.currency.decimals)} {price.currency.symbol}
          {price.assumed && <AssumedMark />}
        </span>
      ) : price.kind === 'unknown' && narrow ? (
        // A table's column: the amount short, the rest in the note.
        <span title={`${price.units.toLocaleString('en')} base units of ${price.currencyAddress}`}>
          {shortUnits(price.units)} units
          <Hint
            note={`Base units of ${price.currencyAddress}, a currency this dashboard does not know (nor its decimals).`}
          >
            ?
          </Hint>
        </span>
      ) : price.kind === 'unknown' ? (
        <span>
          {price.units.toLocaleString('en')} base units of{' '}
          <Address value={price.currencyAddress} copy />
        </span>
      ) : (
        <span className="mono">{price.raw}</span>
      )}
      {quantity !== undefined && (
        <span className="muted small" title={QUANTITY_NOTE}>
          {' '}
          · qty {quantity}
        </span>
      )}
    </>
  );
}

/** Base units in a few characters: "12,500", "1.0e18". */
function shortUnits(units: bigint): string {
  if (units < 10_000_000n) return units.toLocaleString('en');
  const digits = units.toString();
  return `${digits[0]}.${digits[1]}e${digits.length - 1}`;
}
