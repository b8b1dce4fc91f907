import { Address } from '../../components/address';
import { ColumnHeads } from '../../components/column-heads';
import { TimeCell, timeHeading, type TimeView } from '../../components/time-cell';
import { TokenIdLink } from '../../components/token-id';
import { AssumedMark } from '../../components/price';
import { useMediaQuery } from '../../components/use-media-query';
import { shortenHex } from '../../lib/address';
import type { CurrencyRef, MarketAnswer } from '../../lib/answers';
import { formatCurrencyAmount } from '../../lib/currency-amount';
import styles from './market-page.module.css';

/** "ETH", or the unknown currency's short address. */
export function currencyName(currency: CurrencyRef): string {
  return currency.symbol ?? `the currency ${shortenHex(currency.address)}`;
}

function Wallet({ address }: { address: string }) {
  return <Address value={address} wallet />;
}

/**
 * Each currency's highest sales, a table per currency (prices of different currencies
 * are never ranked together): the token (to its page), price, seller, buyer, time and
 * marketplace. Where the six columns do not fit, each sale is a card, each value under
 * its name.
 */
export function TopSales({
  address,
  groups,
  time,
  onOpenToken,
}: {
  address: string;
  groups: MarketAnswer['topSales'];
  time: TimeView;
  onOpenToken: (tokenId: string) => void;
}) {
  const when = timeHeading(time.display, time.zone);
  const tableClass = useMediaQuery(styles.salesCards!)
    ? `${styles.sales} ${styles.cards}`
    : styles.sales;
  return (
    <div className={styles.stack}>
      {groups.map(({ currency, sales }) => (
        <table key={currency.address} className={tableClass}>
          <caption>
            Top {sales.length} sales in {currencyName(currency)}
          </caption>
          <ColumnHeads
            columns={[
              ['Token'],
              ['Price', styles.number],
              ['Seller'],
              ['Buyer'],
              [when],
              ['Marketplace'],
            ]}
          />
          <tbody>
            {sales.map((sale) => (
              <tr key={sale.id}>
                <td data-label="Token">
                  <TokenIdLink
                    contract={address}
                    tokenId={sale.tokenId}
                    onOpen={() => onOpenToken(sale.tokenId)}
                  />
                </td>
                <td data-label="Price" className={styles.number}>
                  <span title={formatCurrencyAmount(sale.price, currency)}>
                    {formatCurrencyAmount(sale.price, currency, 4)}
                  </span>
                  {sale.currencyAssumed && <AssumedMark />}
                </td>
                <td data-label="Seller">
                  <Wallet address={sale.seller} />
                </td>
                <td data-label="Buyer">
                  <Wallet address={sale.buyer} />
                </td>
                <td data-label={when}>
                  <TimeCell seconds={sale.timestamp} {...time} />
                </td>
                <td data-label="Marketplace">
                  {sale.marketplace ?? <span className="muted">none named</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </div>
  );
}
