import { Link } from 'react-router';
import { Address } from '../../components/address';
import { Badge } from '../../components/badge';
import { ContractImage } from '../../components/contract-image';
import {
  countFigures,
  FigureList,
  placeholderFigures,
  type Figure,
} from '../../components/figure-list';
import type { CollectionAnswer } from '../../lib/answers';
import { collectionTitle } from '../../lib/collection-title';
import { assumedSalesNote, formatCurrencyAmount } from '../../lib/currency-amount';
import { plural } from '../../lib/format';
import { hrefs } from '../../lib/routes';
import { formatDay } from '../../lib/time';
import styles from './collection-header.module.css';

/**
 * The collection's name, image, symbol, type and address, and its whole-history figures
 * (events, sales, volume per currency, holders, tokens, first and last activity). The
 * figures' place is held while they load so nothing below moves when they come.
 */
export function CollectionHeader({
  address,
  collection,
}: {
  address: string;
  collection: CollectionAnswer | undefined;
}) {
  const figures = collection?.figures;
  const name = collectionTitle(collection, address);
  const volumes = figures?.volume ?? [];
  const known = volumes.filter((v) => v.currency.state !== 'unknown');
  const unknown = volumes.length - known.length;
  const items: Figure[] = figures
    ? [
        ...countFigures({
          Events: figures.events,
          Sales: figures.sales,
          Holders: figures.holders,
          Tokens: figures.tokens,
        }),
        [
          'Active',
          figures.firstActivity !== null && figures.lastActivity !== null
            ? `${formatDay(figures.firstActivity)} – ${formatDay(figures.lastActivity)}`
            : '—',
        ],
        [
          'Volume',
          volumes.length === 0 ? (
            '—'
          ) : (
            <>
              <span className={styles.volumes}>
                {known.slice(0, SHOWN_CURRENCIES).map((v) => (
                  <span key={v.currency.address} title={formatCurrencyAmount(v.volume, v.currency)}>
                    {formatCurrencyAmount(v.volume, v.currency, 2)}
                  </span>
                ))}
                {known.length > SHOWN_CURRENCIES || unknown > 0 ? (
                  <span className="muted">
                    {plural(
                      volumes.length - Math.min(known.length, SHOWN_CURRENCIES),
                      'other currency',
                      'other currencies',
                    )}
                  </span>
                ) : null}
              </span>
              {figures.assumedSales > 0 && (
                <span className={`${styles.assumed} muted small`}>
                  {assumedSalesNote(figures.assumedSales)}
                </span>
              )}
            </>
          ),
        ],
      ]
    : [];
  return (
    <header className={styles.header}>
      <div className={styles.identity}>
        <ContractImage address={address} image={collection?.image} name={name} size={56} />
        <div className={styles.names}>
          <h1 id="contract-title">
            <span>{name}</span>
            {collection?.symbol && (
              <span className={`${styles.symbol} muted`}>{collection.symbol}</span>
            )}
          </h1>
          <p className={styles.meta}>
            {collection?.type && <Badge>{collection.type}</Badge>}
            <Address value={address} copy explore />
            <Link className={styles.pageLink} to={hrefs.holders(address)}>
              Holders
            </Link>
            <Link className={styles.pageLink} to={hrefs.market(address)}>
              Market
            </Link>
          </p>
        </div>
      </div>
      <FigureList
        figures={figures ? items : PLACEHOLDER}
        busy={collection === undefined}
        className={styles.figures}
        itemClass={(label) => (label === 'Volume' ? styles.wide : undefined)}
      />
    </header>
  );
}

/** Currencies the volume names; the others are counted (the export and filters have all). */
const SHOWN_CURRENCIES = 3;

const PLACEHOLDER = placeholderFigures([
  'Events',
  'Sales',
  'Holders',
  'Tokens',
  'Active',
  'Volume',
]);
