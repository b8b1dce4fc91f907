import { isZeroAddress, shortenHex } from '../lib/address';
import { CopyButton } from './copy-button';

interface AddressProps {
  value: string;
  /** Offers "show only rows with this address" when given. */
  onFilter?: (address: string) => void;
  /** Marks the address highlighted (the filtered one). */
  active?: boolean;
  copy?: boolean;
  /** Hovering or focusing reports the address, so every row holding it can light up. */
  onTrace?: (address: string | null) => void;
  traced?: boolean;
}

/** An address, shortened in the middle with the full value in `title`. */
export function Address({ value, onFilter, active, copy, onTrace, traced }: AddressProps) {
  const zero = isZeroAddress(value);
  const text = zero ? 'Zero address' : shortenHex(value);
  const trace =
    onTrace && !zero
      ? {
          onMouseEnter: () => onTrace(value),
          onMouseLeave: () => onTrace(null),
          onFocus: () => onTrace(value),
          onBlur: () => onTrace(null),
        }
      : {};
  return (
    <span
      className={`address${active ? ' address-active' : ''}`}
      data-address={value}
      data-traced={traced || undefined}
      {...trace}
    >
      {onFilter && !zero ? (
        <button
          type="button"
          className="link-button mono"
          title={`${value} — show only events with this address`}
          onClick={() => onFilter(value)}
        >
          {text}
        </button>
      ) : (
        <span className={zero ? 'muted' : 'mono'} title={value}>
          {text}
        </span>
      )}
      {copy && !zero && <CopyButton value={value} label={`Copy address ${value}`} />}
    </span>
  );
}
