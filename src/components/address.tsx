import { isZeroAddress, shortenHex } from '../lib/address';
import { CopyButton } from './copy-button';

interface AddressProps {
  value: string;
  /** Offers "show only rows with this address" when given. */
  onFilter?: (address: string) => void;
  /** Marks the address highlighted (the filtered one). */
  active?: boolean;
  copy?: boolean;
}

/** An address, shortened in the middle with the full value in `title`. */
export function Address({ value, onFilter, active, copy }: AddressProps) {
  const zero = isZeroAddress(value);
  const text = zero ? 'Zero address' : shortenHex(value);
  return (
    <span className={`address${active ? ' address-active' : ''}`} data-address={value}>
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
