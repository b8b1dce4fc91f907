import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { walletTaxYearExportHref, walletTaxYearQueryOptions } from '../../api/wallets';
import { Amount, SignedAmount } from '../../components/amount';
import { ColumnHeads } from '../../components/column-heads';
import { ErrorState, SkeletonRows } from '../../components/states';
import { shortenHex } from '../../lib/address';
import { formatCount, plural } from '../../lib/format';
import { hrefs } from '../../lib/routes';
import { noResultText, type TaxAmount, type TaxYearTotal } from '../../lib/tax-year';
import { toIso } from '../../lib/time';
import { Figure } from './wallet-collections';
import button from '../../components/button.module.css';
import field from '../../components/field.module.css';
import section from '../../components/section.module.css';
import toolbar from '../../components/toolbar.module.css';
import stacked from '../../components/stacked-table.module.css';
import styles from './wallet-page.module.css';

// Years offered besides the one in the link: enough for a tax return and its corrections.
const YEARS_OFFERED = 6;

interface WalletTaxYearProps {
  address: string;
  year: number;
  currentYear: number;
  onYear: (year: number) => void;
}

/**
 * The wallet's year for taxes: each token it sold in a UTC year, how it came and for
 * what, what it brought, days held and the result in the one currency of both (none, and
 * why, when the cost is unknown); totals per currency; the same as a CSV file.
 */
export function WalletTaxYear({ address, year, currentYear, onYear }: WalletTaxYearProps) {
  const answer = useQuery(walletTaxYearQueryOptions(address, year));
  const yearId = useId();
  const first = Math.min(year, currentYear - YEARS_OFFERED + 1);
  const years = Array.from({ length: currentYear - first + 1 }, (_, i) => currentYear - i);
  const sales = answer.data?.sales ?? [];
  return (
    <section aria-labelledby="wallet-tax-year-title">
      <h2 id="wallet-tax-year-title" className={section.heading}>
        Year for taxes
      </h2>
      <div className={toolbar.toolbar}>
        <div className={field.field}>
          <label htmlFor={yearId}>Tokens sold in (UTC)</label>
          <select id={yearId} value={year} onChange={(event) => onYear(Number(event.target.value))}>
            {years.map((each) => (
              <option key={each} value={each}>
                {each}
              </option>
            ))}
          </select>
        </div>
        {sales.length > 0 && (
          <a className={button.secondary} href={walletTaxYearExportHref(address, year)} download>
            Download CSV
          </a>
        )}
      </div>
      {answer.isPending ? (
        <SkeletonRows columns={6} rows={2} />
      ) : answer.isError ? (
        <ErrorState error={answer.error} onRetry={() => void answer.refetch()} />
      ) : (
        <>
          {sales.length === 0 ? (
            <p className="muted">No token sold by this wallet in {year} that the index holds.</p>
          ) : (
            <>
              <dl className={styles.taxTotals}>
                {answer.data.totals.map((total) => (
                  <Figure key={total.currency.address} term={totalTerm(total)}>
                    <TotalFigures total={total} />
                  </Figure>
                ))}
              </dl>
              <div
                className={styles.scroller}
                role="region"
                aria-labelledby={`${yearId}-caption`}
                tabIndex={0}
              >
                <table className={`${styles.taxTable} ${stacked.stacked}`}>
                  <caption id={`${yearId}-caption`} className="muted small">
                    {plural(sales.length, 'token')} sold in {year}, oldest sale first; dates in UTC
                  </caption>
                  <ColumnHeads
                    columns={[
                      ['Token'],
                      ['Came'],
                      ['Cost', styles.number],
                      ['Sold'],
                      ['Proceeds', styles.number],
                      ['Held', styles.number],
                      ['Result', styles.number],
                    ]}
                  />
                  <tbody>
                    {sales.map((sale) => {
                      const name = sale.collection.name || shortenHex(sale.collection.address);
                      return (
                        <tr key={`${sale.collection.address}|${sale.tokenId}|${sale.sold.at}`}>
                          <th scope="row">
                            <Link to={hrefs.tokenHistory(sale.collection.address, sale.tokenId)}>
                              {name} #{sale.tokenId}
                            </Link>
                          </th>
                          <td data-label="Came">
                            {sale.acquired.how} <Day seconds={sale.acquired.at} />
                          </td>
                          <td className={styles.number} data-label="Cost">
                            {sale.acquired.price ? (
                              <AmountOf amount={sale.acquired.price} />
                            ) : (
                              <span className="muted">unknown</span>
                            )}
                          </td>
                          <td data-label="Sold">
                            <Day seconds={sale.sold.at} />
                          </td>
                          <td className={styles.number} data-label="Proceeds">
                            <AmountOf amount={sale.sold.price} />
                          </td>
                          <td className={styles.number} data-label="Held">
                            {plural(sale.heldDays, 'day')}
                          </td>
                          <td className={styles.number} data-label="Result">
                            {sale.result ? (
                              <SignedAmount
                                units={sale.result.units}
                                currency={sale.result.currency.address}
                                assumed={sale.result.assumed}
                                narrow
                              />
                            ) : (
                              <span className="muted">{noResultText(sale)}</span>
                            )}
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            </>
          )}
          <p className={styles.note}>
            <strong>{answer.data.gross}</strong> {answer.data.counted}
          </p>
        </>
      )}
    </section>
  );
}

function AmountOf({ amount }: { amount: TaxAmount }) {
  return (
    <Amount
      units={amount.units}
      currency={amount.currency.address}
      assumed={amount.assumed}
      narrow
    />
  );
}

/** A day in UTC, the calendar the year is counted in. */
function Day({ seconds }: { seconds: number }) {
  const iso = toIso(seconds);
  return <time dateTime={iso}>{iso.slice(0, 10)}</time>;
}

const totalTerm = (total: TaxYearTotal) =>
  `In ${total.currency.symbol ?? shortenHex(total.currency.address)}`;

/** A currency's year: what was sold, the result where the cost is known, and what has none. */
function TotalFigures({ total }: { total: TaxYearTotal }) {
  const currency = total.currency.address;
  return (
    <ul className={styles.trades}>
      <li>
        {formatCount(total.sales)} sold for <Amount units={total.proceeds} currency={currency} />
      </li>
      <li>
        {total.withResult > 0 ? (
          <>
            result <SignedAmount units={total.result} currency={currency} assumed={false} /> on{' '}
            {plural(total.withResult, 'token')} bought for{' '}
            <Amount units={total.cost} currency={currency} />
          </>
        ) : (
          <span className="muted">no token with a known cost</span>
        )}
      </li>
      {total.unknownCost > 0 && (
        <li className="muted">{formatCount(total.unknownCost)} minted or received: cost unknown</li>
      )}
      {total.otherCurrency > 0 && (
        <li className="muted">
          {formatCount(total.otherCurrency)} bought in another currency: no result
        </li>
      )}
    </ul>
  );
}
