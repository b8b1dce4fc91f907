import type { RealisedResult } from '../../lib/answers';
import { custodyChain, type Custody, type CustodyEvent } from '../../lib/custody';
import type { EventRecord } from './event-rows';
import { currencyRef, kindOf } from './figures';
import { addressBytes, hexOf } from './sql';

/**
 * A wallet's turns as a token's owner: each change that brought a token to the wallet
 * comes with that token's next change (by the holder rule: time, rank, order stored),
 * whoever made it; that pair is the wallet's turn in the token's chain of custody, as the
 * token page shows it (`custodyChain`). The realised result is summed from these turns,
 * for one collection (wallet-collection.ts) and for every collection at once (wallet.ts).
 */

/** A change to or from the wallet, and the token's next change when it came to the wallet. */
export interface TurnRecord extends Pick<
  EventRecord,
  'token_id' | 'to_addr' | 'ts' | 'kind' | 'price' | 'currency' | 'currency_assumed'
> {
  next_to: Buffer | null;
  next_ts: string | null;
  next_kind: number | null;
  next_price: string | null;
  next_currency: Buffer | null;
  next_currency_assumed: boolean | null;
}

/** The columns of a `TurnRecord`, from `idx_changes c` and `NEXT_CHANGE`'s `n`. */
export const TURN_COLUMNS = `c.token_id::text AS token_id, c.to_addr, c.ts, c.kind,
  c.price::text AS price, c.currency, c.currency_assumed, n.to_addr AS next_to, n.ts AS next_ts,
  n.kind AS next_kind, n.price::text AS next_price, n.currency AS next_currency,
  n.currency_assumed AS next_currency_assumed`;

/**
 * The token's next change after a change `c` to the wallet ($1), reading idx_changes_token
 * backwards (oldest first from the given position); a change from the wallet needs none.
 */
export const NEXT_CHANGE = `LATERAL (
  SELECT n.to_addr, n.ts, n.kind, n.price, n.currency, n.currency_assumed FROM idx_changes n
  WHERE c.to_addr = $1 AND n.contract_id = c.contract_id AND n.token_id = c.token_id
    AND (n.ts, n.rank, n.id) > (c.ts, c.rank, c.id)
  ORDER BY n.ts, n.rank, n.id LIMIT 1) n`;

/**
 * The custody module's event from a change's columns; a sale that named no currency is
 * given none, so custody marks its price and result assumed. No figure here reads a turn's
 * transaction, so it is not read (a busy wallet has thousands of turns).
 */
function custodyEvent(
  to: Buffer,
  ts: string,
  kind: number,
  price: string | null,
  currency: Buffer | null,
  assumed: boolean | null,
): CustodyEvent {
  return {
    kind: kindOf(kind),
    to: hexOf(to),
    timestamp: Number(ts),
    transactionHash: '',
    ...(price !== null && { price }),
    ...(currency && currency.length > 0 && !assumed && { currencyAddress: hexOf(currency) }),
  };
}

/** The wallet's turn as the token's owner, from the change that brought it and the next. */
export function turnOf(row: TurnRecord): Custody | undefined {
  const acquired = custodyEvent(
    row.to_addr,
    row.ts,
    row.kind,
    row.price,
    row.currency,
    row.currency_assumed,
  );
  const next =
    row.next_ts === null
      ? []
      : [
          custodyEvent(
            row.next_to!,
            row.next_ts,
            row.next_kind!,
            row.next_price,
            row.next_currency,
            row.next_currency_assumed,
          ),
        ];
  return custodyChain([acquired, ...next])[0];
}

/** Sums per currency key ('' for none named), then as the answer gives them. */
export class PerCurrency<T extends object> {
  private readonly entries = new Map<string, T>();
  constructor(private readonly empty: () => T) {}
  at(currency: string): T {
    let entry = this.entries.get(currency);
    if (!entry) this.entries.set(currency, (entry = this.empty()));
    return entry;
  }
  list<R>(map: (entry: T, currency: ReturnType<typeof currencyRef>) => R): R[] {
    return [...this.entries].map(([key, entry]) =>
      map(entry, currencyRef(key ? addressBytes(key) : null)),
    );
  }
}

/** The realised result per currency, summed over turns: tokens bought and later sold in one currency. */
export class RealisedResults {
  private readonly sums = new PerCurrency(() => ({
    tokens: 0,
    cost: 0n,
    proceeds: 0n,
    result: 0n,
    flips: 0,
    assumed: 0,
  }));

  /** Adds the turn's result; false when it has none (not bought, not sold, or two currencies). */
  add(turn: Custody): boolean {
    const [paid, got, result] = [turn.acquired.price, turn.disposed?.price, turn.result];
    if (!result || !paid || !got) return false;
    const entry = this.sums.at(result.currency);
    entry.tokens += 1;
    entry.cost += BigInt(paid.units);
    entry.proceeds += BigInt(got.units);
    entry.result += BigInt(result.units);
    if (turn.flip) entry.flips += 1;
    if (result.assumed) entry.assumed += 1;
    return true;
  }

  /** Per currency, the most tokens first. */
  list(): RealisedResult[] {
    return this.sums
      .list((entry, currency): RealisedResult => ({
        currency,
        tokens: entry.tokens,
        cost: entry.cost.toString(),
        proceeds: entry.proceeds.toString(),
        result: entry.result.toString(),
        flips: entry.flips,
        assumed: entry.assumed,
      }))
      .sort((a, b) => b.tokens - a.tokens);
  }
}
