import type { MouseEvent } from 'react';
import { isZeroAddress, shortenHex } from '../lib/address';
import { CopyButton } from './copy-button';
import { ExplorerLink } from './explorer-link';
import { isPlainClick } from './plain-click';
import styles from './address.module.css';

/** "Show only rows with this address": a link to that view, applied in place on a plain click. */
export interface AddressFilter {
  href: (address: string) => string;
  /** Applies the filter in place; without it the link is followed. */
  apply?: (address: string) => void;
  /** What following the link shows; "show only events with this address" by default. */
  title?: string;
}

interface AddressProps {
  value: string;
  /** Offers "show only events with this address" when given. */
  filter?: AddressFilter;
  /** Marks the address highlighted (the filtered one). */
  active?: boolean;
  /** A copy button after it. */
  copy?: boolean;
  /** A link to the address in the explorer after it. */
  explore?: boolean;
  /** Hovering or focusing reports the address, so every row holding it can light up. */
  onTrace?: (address: string | null) => void;
  traced?: boolean;
}

/**
 * An address, shortened in the middle with the full value in `title`. In a table row it
 * is a single element (a filter link, or text): rows hold two of these, and while
 * scrolling every element of a new row costs style and layout time. The filter is a link
 * (the filtered view has a URL of its own) rather than a button, which also lays out
 * faster: a button is a flex box with an inner box of its own, a link is plain inline
 * text. Elsewhere it may carry a copy button and an explorer link.
 */
export function Address({ value, filter, active, copy, explore, onTrace, traced }: AddressProps) {
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
  let shown;
  if (filter && !zero) {
    const apply = (event: MouseEvent) => {
      if (!filter.apply || !isPlainClick(event)) return;
      event.preventDefault();
      filter.apply(value);
    };
    shown = (
      <a
        className={`${className} ${styles.link} mono`}
        href={filter.href(value)}
        title={`${value} — ${filter.title ?? 'show only events with this address'}`}
        onClick={apply}
        {...marks}
      >
        {text}
      </a>
    );
  } else {
    shown = (
      <span className={`${className} ${zero ? 'muted' : 'mono'}`} title={value} {...marks}>
        {text}
      </span>
    );
  }
  if (zero || (!copy && !explore)) return shown;
  return (
    <span className={styles.withTools}>
      {shown}
      {copy && <CopyButton value={value} label={`Copy address ${value}`} />}
      {explore && <ExplorerLink page="contract" value={value} />}
    </span>
  );
}
