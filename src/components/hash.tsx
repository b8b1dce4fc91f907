import { shortenHex } from '../lib/address';
import { CopyButton } from './copy-button';

/**
 * A transaction hash, middle-shortened, full value in `title`, with copy. No wrapper
 * element: it sits in a table cell, where the two line up without one (see data-table.module.css).
 */
export function Hash({ value, label = 'transaction hash' }: { value: string; label?: string }) {
  if (!value) return <span className="muted">—</span>;
  return (
    <>
      <span className="mono" title={value}>
        {shortenHex(value, 5)}
      </span>
      <CopyButton value={value} label={`Copy ${label} ${value}`} />
    </>
  );
}
