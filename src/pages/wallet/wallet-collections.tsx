import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { SignedAmount } from '../../components/amount';
import { ContractImage } from '../../components/contract-image';
import { Price } from '../../components/price';
import { TimeCell } from '../../components/time-cell';
import { shortenHex } from '../../lib/address';
import type { RealisedResult, WalletCollection } from '../../lib/answers';
import { formatCount, plural } from '../../lib/format';
import { hrefs } from '../../lib/routes';
import type { TimeZoneChoice } from '../../lib/time';
import type { TimeDisplay } from '../../lib/view-state';
import styles from './wallet-page.module.css';

interface WalletCollectionsProps {
  collections: readonly WalletCollection[];
  display: TimeDisplay;
  zone: TimeZoneChoice;
  nowMs: number;
  /** The wallet's view inside one collection ("?collection=0x…"). */
  eventsSearch: (collection: string) => string;
}

/** Sales on one side (bought or sold) in one currency: never summed across currencies. */
type Trade = WalletCollection['bought'][number];

/** The name a collection goes by: its own (the wallet answer's), or its short address. */
export function collectionName(
  collection: Pick<WalletCollection, 'name'> | undefined,
  address: string,
): string {
  return collection?.name || `Contract ${shortenHex(address)}`;
}

/**
 * Per collection: what the wallet holds now, what it bought and sold (count and amount in
 * each currency, never summed across currencies) and when it last moved a token there.
 */
export function WalletCollections(props: WalletCollectionsProps) {
  const { collections, display, zone, nowMs, eventsSearch } = props;
  return (
    <ul className={styles.collections} aria-label="Collections">
      {collections.map((collection) => {
        const name = collectionName(collection, collection.address);
        return (
          <li key={collection.address} className={styles.card}>
            <div className={styles.cardHead}>
              <ContractImage address={collection.address} image={undefined} name={name} size={40} />
              <div className={styles.cardName}>
                <Link to={hrefs.contractEvents(collection.address)}>{name}</Link>
                {collection.symbol && <span className="muted small">{collection.symbol}</span>}
              </div>
            </div>
            <dl className={styles.figures}>
              <Figure term="Held now">
                {formatCount(collection.holds)} {collection.holds === 1 ? 'token' : 'tokens'}
              </Figure>
              <Figure term="Bought">
                <Trades trades={collection.bought} />
              </Figure>
              <Figure term="Sold">
                <Trades trades={collection.sold} />
              </Figure>
              <Figure term="Result">
                <Results results={collection.results} />
              </Figure>
              <Figure term="Last activity">
                <TimeCell
                  seconds={collection.lastActivity}
                  display={display}
                  nowMs={nowMs}
                  zone={zone}
                />
              </Figure>
            </dl>
            <Link
              className={styles.cardLink}
              to={eventsSearch(collection.address)}
              aria-label={`In this collection: ${plural(collection.events, 'event')}, this wallet’s in ${name}, with its holdings over time, results and counterparties`}
            >
              In this collection: {plural(collection.events, 'event')}{' '}
              <span aria-hidden="true">›</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** One term and its value in a card's figures. */
export function Figure({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** "2 sales · 1.25 ETH", one line per currency; "none" when there were none. */
export function Trades({ trades }: { trades: readonly Trade[] }) {
  if (trades.length === 0) return <span className="muted">none</span>;
  return (
    <ul className={styles.trades}>
      {trades.map((trade) => (
        <li key={trade.currency.address}>
          <span className="muted">{plural(trade.sales, 'sale')} · </span>
          <Price event={{ price: trade.amount, currencyAddress: trade.currency.address }} />
        </li>
      ))}
    </ul>
  );
}

/**
 * The realised result, "+0.5 ETH · 3 tokens, 1 flip", one line per currency; "none" when
 * no token was bought and later sold in one currency.
 */
export function Results({ results }: { results: readonly RealisedResult[] }) {
  if (results.length === 0) return <span className="muted">none</span>;
  return (
    <ul className={styles.trades}>
      {results.map((result) => (
        <li key={result.currency.address}>
          <SignedAmount
            units={result.result}
            currency={result.currency.address}
            assumed={result.assumed > 0}
          />
          <span className="muted">
            {' '}
            · {plural(result.tokens, 'token')}, {plural(result.flips, 'flip')}
          </span>
        </li>
      ))}
    </ul>
  );
}
