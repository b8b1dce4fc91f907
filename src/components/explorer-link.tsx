import { explorerHref, explorerName, type ExplorerPage } from '../lib/explorer';
import { useSettings } from './settings';
import styles from './explorer-link.module.css';

const WHAT: Record<ExplorerPage, string> = { tx: 'transaction', contract: 'address' };

/**
 * "Open in the explorer": a small ↗ link to the explorer of the settings, in a new tab
 * that gets neither this page's window nor its address.
 */
export function ExplorerLink({ page, value }: { page: ExplorerPage; value: string }) {
  const { explorerUrl } = useSettings();
  const label = `Open ${WHAT[page]} ${value} in ${explorerName(explorerUrl)} (new tab)`;
  return (
    <a
      className={styles.icon}
      href={explorerHref(explorerUrl, page, value)}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={label}
      title={label}
    >
      ↗
    </a>
  );
}
