import { Price } from './price';
import styles from './amount.module.css';

/** An amount in its currency's address; '' is a sale that named none (ETH assumed). */
export function Amount({ units, currency }: { units: string; currency: string }) {
  return <Price event={{ price: units, currencyAddress: currency || undefined }} />;
}

/** A result, signed base units in one currency: "+0.5 ETH", "−0.2 ETH", "±0 ETH". */
export function SignedAmount({ units, currency }: { units: string; currency: string }) {
  const negative = units.startsWith('-');
  const size = negative ? units.slice(1) : units;
  const sign = negative ? '−' : size === '0' ? '±' : '+';
  return (
    <span className={negative ? styles.loss : styles.gain}>
      {sign}
      <Amount units={size} currency={currency} />
    </span>
  );
}
