import { Link } from 'react-router';
import { shortenHex } from '../lib/address';
import { hrefs } from '../lib/routes';
import { CopyButton } from './copy-button';
import styles from './hash.module.css';

/**
 * A transaction hash, middle-shortened, linking to the transaction's page (every change
 * of hands in it, and the explorer from there), full value in `title`, with copy. No
 * wrapper element and no icon of its own: it sits in every table row, where each element
 * costs while scrolling (see data-table.module.css).
 */
export function Hash({ value }: { value: string }) {
  if (!value) return <span className="muted">—</span>;
  return (
    <>
      <Link
        className={`${styles.hash} mono`}
        to={hrefs.transaction(value)}
        title={`${value} — open this transaction`}
      >
        {shortenHex(value, 5)}
      </Link>
      <CopyButton value={value} label={`Copy transaction hash ${value}`} />
    </>
  );
}
