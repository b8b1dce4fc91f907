import type { MouseEvent } from 'react';
import { Link } from 'react-router';
import { isZeroAddress, shortenHex } from '../lib/address';
import { hrefs } from '../lib/routes';
import { CopyButton } from './copy-button';
import { ExplorerLink } from './explorer-link';
import { isPlainClick } from './plain-click';
import styles from './address.module.css';

/** "Show only rows with this address": a link to that view, applied in place on a plain click. */
export interface AddressFilter {
  href: (address: string) => string;
  /** Applies the filter in place; without it the link is followed. */
  apply?: (address: string) => void;
  /** Its accessible name before the address; "Show only events with" by default. */
  title?: string;
}

interface AddressProps {
  value: string;
  /** The address is a link to its wallet's page (`/addresses/…`); the zero address never is. */
  wallet?: boolean;
  /** A small filter button after it: "show only events with this address". */
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
 * An address, shortened in the middle with the full value in `title`: a link to its
 * wallet, and beside it, where the page can narrow its table to it, a filter button. The
 * filter is a link (the filtered view has a URL of its own) applied in place on a plain
 * click; a link is also plain inline text, which lays out faster than a button in rows
 * that scroll by. Elsewhere it may carry a copy button and an explorer link.
 */
export function Address(props: AddressProps) {
  const { value, wallet, filter, active, copy, explore, onTrace, traced } = props;
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
  const shown =
    wallet && !zero ? (
      <Link
        className={`${className} ${styles.link} mono`}
        to={hrefs.wallet(value)}
        title={`${value} — open this wallet`}
        {...marks}
      >
        {text}
      </Link>
    ) : (
      <span className={`${className} ${zero ? 'muted' : 'mono'}`} title={value} {...marks}>
        {text}
      </span>
    );
  const filtered = filter && !zero;
  if (zero || (!filtered && !copy && !explore)) return shown;
  return (
    <span className={styles.withTools}>
      {shown}
      {filtered && <FilterLink value={value} filter={filter} />}
      {copy && <CopyButton value={value} label={`Copy address ${value}`} />}
      {explore && <ExplorerLink page="contract" value={value} />}
    </span>
  );
}

function FilterLink({ value, filter }: { value: string; filter: AddressFilter }) {
  const apply = (event: MouseEvent) => {
    if (!filter.apply || !isPlainClick(event)) return;
    event.preventDefault();
    filter.apply(value);
  };
  const label = `${filter.title ?? 'Show only events with'} ${value}`;
  return (
    <a
      className={styles.filter}
      data-address-filter=""
      href={filter.href(value)}
      aria-label={label}
      title={label}
      onClick={apply}
    >
      <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
        <path d="M1.5 2h13l-5 6v5l-3 1.5V8z" fill="currentColor" />
      </svg>
    </a>
  );
}
