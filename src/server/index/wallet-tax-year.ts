import type pg from 'pg';
import type { Amount } from '../../lib/custody';
import {
  heldDaysOf,
  taxYearSpan,
  taxYearTotals,
  type TaxAmount,
  type TaxYearSale,
  type TaxYearTotal,
} from '../../lib/tax-year';
import { currencyRef } from './figures';
import { KIND_CODES } from './index-schema';
import { addressBytes } from './sql';
import { NEXT_CHANGE, TURN_COLUMNS, turnOf, type TurnRecord } from './wallet-turns';

/**
 * The tokens a wallet sold in a UTC year: its turns as owner (wallet-turns.ts, the token
 * page's chain of custody) whose next change is a sale to another wallet in that year.
 * How the token came, and what it cost, is the turn's start: the same rule as every
 * realised result of the dashboard, so a year's results add up to what the wallet's
 * pages say of the sales in it. Its cost grows with the wallet's changes received (one
 * probe of the token's changes each).
 */
export async function walletTaxYear(
  pool: pg.Pool,
  wallet: string,
  year: number,
): Promise<{ sales: TaxYearSale[]; totals: TaxYearTotal[] }> {
  const { from, to } = taxYearSpan(year);
  const bytes = addressBytes(wallet);
  const { rows } = await pool.query<TurnRecord & { contract: string; name: string | null }>(
    `SELECT ic.address AS contract, ic.name, ${TURN_COLUMNS}
     FROM idx_changes c JOIN ${NEXT_CHANGE} ON true JOIN idx_contracts ic ON ic.id = c.contract_id
     WHERE c.to_addr = $1 AND n.kind = $2 AND n.ts >= $3 AND n.ts < $4 AND n.to_addr <> $1
     ORDER BY n.ts, ic.address, c.token_id`,
    [bytes, KIND_CODES.sale, from, to],
  );
  const sales = rows.flatMap((row): TaxYearSale[] => {
    const turn = turnOf(row);
    const got = turn?.disposed?.price;
    if (!turn?.disposed || !got) return [];
    const paid = turn.acquired.price;
    return [
      {
        collection: { address: row.contract, name: row.name },
        tokenId: row.token_id,
        acquired: {
          how: turn.acquired.how,
          at: turn.acquired.at,
          price: paid ? taxAmount(paid) : null,
        },
        sold: { at: turn.disposed.at, price: taxAmount(got) },
        heldDays: heldDaysOf(turn.acquired.at, turn.disposed.at),
        result: turn.result ? taxAmount(turn.result) : null,
        noResult: turn.result ? null : paid ? 'other-currency' : 'unknown-cost',
      },
    ];
  });
  return { sales, totals: taxYearTotals(sales) };
}

const taxAmount = (amount: Amount): TaxAmount => ({
  units: amount.units,
  currency: currencyRef(addressBytes(amount.currency)),
  assumed: amount.assumed === true,
});
