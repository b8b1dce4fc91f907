import { Price } from './price';
import styles from './amount.module.css';

interface AmountProps {
  units: string;
  /** The currency's address. */
  currency: string;
  /** ETH, as a sale named none: shown "ETH*". */
  assumed?: boolean;
  /** In a table's column: an unknown currency's base units short, the rest in a note. */
  narrow?: boolean;
}

/** An amount in its currency. */
export function Amount({ units, currency, assumed = false, narrow = false }: AmountProps) {
  // A price naming no currency is what readPrice marks assumed.
  return (
    <Price
      event={{ price: units, currencyAddress: assumed ? undefined : currency }}
      narrow={narrow}
    />
  );
}

/** A result, signed base units in one currency: "+0.5 ETH", "−0.2 ETH", "±0 ETH". */
export function SignedAmount({ units, currency, assumed, narrow }: AmountProps) {
  const negative = units.startsWith('-');
  const size = negative ? units.slice(1) : units;
  const sign = negative ? '−' : size === '0' ? '±' : '+';
  return (
    <span className={negative ? styles.loss : styles.gain}>
      {sign}
      <Amount units={size} currency={currency} assumed={assumed} narrow={narrow} />
    </span>
  );
}
