import { Link } from 'react-router';
import { CopyButton } from '../../components/copy-button';
import { ExplorerLink } from '../../components/explorer-link';
import { FeedLink } from '../../components/feed-link';
import { shortenHex } from '../../lib/address';
import { hrefs } from '../../lib/routes';
import styles from './wallet-page.module.css';

/** The wallet's address, short in the heading and whole below it, with copy and the explorer. */
export function WalletHeader({ address }: { address: string }) {
  return (
    <header className={styles.header}>
      <nav aria-label="Breadcrumb" className={styles.breadcrumb}>
        <Link to={hrefs.contracts()}>Contracts</Link> › Wallet
      </nav>
      <h1 id="wallet-title" className={styles.title}>
        Wallet <span className="mono">{shortenHex(address)}</span>
      </h1>
      <p className={styles.address}>
        <span className="mono">{address}</span>
        <CopyButton value={address} label={`Copy wallet address ${address}`} />
        <ExplorerLink page="contract" value={address} />
        <FeedLink />
      </p>
    </header>
  );
}
