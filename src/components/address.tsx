import type { MouseEvent } from 'react';
import { isZeroAddress, shortenHex } from '../lib/address';
import { CopyButton } from './copy-button';
import { isPlainClick } from './plain-click';
import styles from './address.module.css';

/** "Show only rows with this address": a link to that view, applied in place on a plain click. */
export interface AddressFilter {
  href: (address: string) => string;
  apply: (address: string) => void;
}

interface AddressProps {
  value: string;
  /** Offers "show only rows with this address" when given. */
  filter?: AddressFilter;
  /** Marks the address highlighted (the filtered one). */
  active?: boolean;
  copy?: boolean;
  /** Hovering or focusing reports the address, so every row holding it can light up. */
  onTrace?: (address: string | null) => void;
  traced?: boolean;
}

/**
 * An address, shortened in the middle with the full value in `title`. Without a copy
 * button it is a single element: table cells hold two of these per row, and while
 * scrolling every element of a new row costs style and layout time. The filter is a link
 * (the filtered view has a URL of its own) rather than a button, which also lays out
 * faster: a button is a flex box with an inner box of its own, a link is plain inline text.
 */
export function Address({ value, filter, active, copy, onTrace, traced }: AddressProps) {
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
  const marks = {
    'data-address': value,
    'data-traced': traced || undefined,
    ...trace,
  };
  const className = active ? `${styles.address} ${styles.active}` : styles.address;
  if (copy && !zero) {
    return (
      <span className={`${className} ${styles.withCopy}`} {...marks}>
        <span className="mono" title={value}>
          {text}
        </span>
        <CopyButton value={value} label={`Copy address ${value}`} />
      </span>
    );
  }
  if (filter && !zero) {
    const apply = (event: MouseEvent) => {
      if (!isPlainClick(event)) return;
      event.preventDefault();
      filter.apply(value);
    };
    return (
      <a
        className={`${className} ${styles.link} mono`}
        href={filter.href(value)}
        title={`${value} — show only events with this address`}
        onClick={apply}
        {...marks}
      >
        {text}
      </a>
    );
  }
  return (
    <span className={`${className} ${zero ? 'muted' : 'mono'}`} title={value} {...marks}>
      {text}
    </span>
  );
}
