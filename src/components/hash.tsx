import { shortenHex } from '../lib/address';
import { explorerHref, explorerName } from '../lib/explorer';
import { CopyButton } from './copy-button';
import { useSettings } from './settings';
import styles from './hash.module.css';

/**
 * A transaction hash, middle-shortened, linking to the transaction in the explorer (new
 * tab), full value in `title`, with copy. No wrapper element and no icon of its own: it
 * sits in every table row, where each element costs while scrolling (see data-table.module.css).
 */
export function Hash({ value }: { value: string }) {
  const { explorerUrl } = useSettings();
  if (!value) return <span className="muted">—</span>;
  return (
    <>
      <a
        className={`${styles.hash} mono`}
        href={explorerHref(explorerUrl, 'tx', value)}
        target="_blank"
        rel="noopener noreferrer"
        title={`${value} — open in ${explorerName(explorerUrl)} (new tab)`}
      >
        {shortenHex(value, 5)}
      </a>
      <CopyButton value={value} label={`Copy transaction hash ${value}`} />
    </>
  );
}
