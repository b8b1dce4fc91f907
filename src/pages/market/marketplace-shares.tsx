import { ColumnHeads } from '../../components/column-heads';
import { PHONE_QUERY, useMediaQuery } from '../../components/use-media-query';
import type { MarketAnswer } from '../../lib/answers';
import { formatCurrencyAmount } from '../../lib/currency-amount';
import { formatCount, formatShare } from '../../lib/format';
import styles from './market-page.module.css';

/**
 * Each marketplace's sales and share of them, and its volume in each currency with its
 * share of that currency's volume: a volume is never added to another currency's.
 */
export function MarketplaceShares({ answer }: { answer: MarketAnswer }) {
  const cards = useMediaQuery(PHONE_QUERY);
  return (
    <table className={cards ? `${styles.markets} ${styles.cards}` : styles.markets}>
      <caption>Sales and volume per marketplace</caption>
      <ColumnHeads
        columns={[
          ['Marketplace'],
          ['Sales', styles.number],
          ['Share of sales', styles.number],
          ['Volume per currency (share of that currency’s volume)'],
        ]}
      />
      <tbody>
        {answer.marketplaces.map((market) => (
          <tr key={market.name ?? ''}>
            <th scope="row" data-label="Marketplace">
              {market.name ?? <span className="muted">none named</span>}
            </th>
            <td data-label="Sales" className={styles.number}>
              {formatCount(market.sales)}
            </td>
            <td data-label="Share of sales" className={styles.number}>
              {formatShare(market.share)}
            </td>
            <td data-label="Volume">
              <ul className={styles.volumes}>
                {market.volume.map((volume) => (
                  <li key={volume.currency.address ?? 'none'}>
                    <span title={formatCurrencyAmount(volume.volume, volume.currency)}>
                      {formatCurrencyAmount(volume.volume, volume.currency, 2)}
                    </span>{' '}
                    <span className="muted">({formatShare(volume.share)})</span>
                  </li>
                ))}
              </ul>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
