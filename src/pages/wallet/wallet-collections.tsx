import { Link } from 'react-router';
import type { WalletCollection, WalletTrade } from '../../api/wallets';
import { ContractImage } from '../../components/contract-image';
import { Price } from '../../components/price';
import { TimeCell } from '../../components/time-cell';
import { shortenHex } from '../../lib/address';
import type { Contract } from '../../lib/contract';
import { formatCount, plural } from '../../lib/format';
import { hrefs } from '../../lib/routes';
import type { TimeZoneChoice } from '../../lib/time';
import type { TimeDisplay } from '../../lib/view-state';
import styles from './wallet-page.module.css';

interface WalletCollectionsProps {
  collections: readonly WalletCollection[];
  /** The contract list as loaded, for images. */
  contracts: ReadonlyMap<string, Contract>;
  display: TimeDisplay;
  zone: TimeZoneChoice;
  nowMs: number;
  /** The events view's search for one collection ("?collection=0x…"). */
  eventsSearch: (collection: string) => string;
}

/** The name a collection goes by: its own, the contract list's, or its short address. */
export function collectionName(
  collection: Pick<WalletCollection, 'address' | 'name'> | undefined,
  contract: Contract | undefined,
  address: string,
): string {
  return collection?.name ?? contract?.name ?? `Contract ${shortenHex(address)}`;
}

/**
 * Per collection: what the wallet holds now, what it bought and sold (count and amount in
 * each currency, never summed across currencies) and when it last moved a token there.
 */
export function WalletCollections(props: WalletCollectionsProps) {
  const { collections, contracts, display, zone, nowMs, eventsSearch } = props;
  return (
    <ul className={styles.collections} aria-label="Collections">
      {collections.map((collection) => {
        const contract = contracts.get(collection.address);
        const name = collectionName(collection, contract, collection.address);
        return (
          <li key={collection.address} className={styles.card}>
            <div className={styles.cardHead}>
              <ContractImage image={contract?.image} name={name} size={40} />
              <div className={styles.cardName}>
                <Link to={hrefs.contractEvents(collection.address)}>{name}</Link>
                {collection.symbol && <span className="muted small">{collection.symbol}</span>}
              </div>
            </div>
            <dl className={styles.figures}>
              <div>
                <dt>Held now</dt>
                <dd>
                  {formatCount(collection.holds)} {collection.holds === 1 ? 'token' : 'tokens'}
                </dd>
              </div>
              <div>
                <dt>Bought</dt>
                <dd>
                  <Trades trades={collection.bought} />
                </dd>
              </div>
              <div>
                <dt>Sold</dt>
                <dd>
                  <Trades trades={collection.sold} />
                </dd>
              </div>
              <div>
                <dt>Last activity</dt>
                <dd>
                  <TimeCell
                    seconds={collection.lastActivity}
                    display={display}
                    nowMs={nowMs}
                    zone={zone}
                  />
                </dd>
              </div>
            </dl>
            <Link
              className={styles.cardLink}
              to={eventsSearch(collection.address)}
              aria-label={`Show the wallet’s ${plural(collection.events, 'event')} in ${name}`}
            >
              {plural(collection.events, 'event')} ›
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** "2 sales · 1.25 ETH", one line per currency; "none" when there were none. */
function Trades({ trades }: { trades: readonly WalletTrade[] }) {
  if (trades.length === 0) return <span className="muted">none</span>;
  return (
    <ul className={styles.trades}>
      {trades.map((trade) => (
        <li key={trade.currency.address ?? 'assumed'}>
          <span className="muted">{plural(trade.sales, 'sale')} · </span>
          <Price
            event={{ price: trade.amount, currencyAddress: trade.currency.address ?? undefined }}
          />
        </li>
      ))}
    </ul>
  );
}
