import type pg from 'pg';
import { isZeroAddress } from '../../lib/address';
import { chooseInterval, intervalEnd, intervalStart } from '../../lib/activity';
import type {
  Counterparty,
  CurrencyTrades,
  HeldInterval,
  HeldToken,
  RealisedResult,
  WalletInCollectionAnswer,
} from '../../lib/answers';
import { custodyChain, type Custody, type CustodyEvent } from '../../lib/custody';
import { tokenIdToHex } from '../../lib/token-id';
import type { EventRecord } from './event-rows';
import { currencyRef, kindOf } from './figures';
import { addressBytes, hexOf } from './sql';

/**
 * One wallet inside one collection, from its changes of hands there: what it held at the
 * end of each day, week or month; what it bought and sold per currency; mints received
 * and transfers in and out; the realised result of each token it bought and later sold
 * (the token page's chain of custody, `custodyChain`, for the wallet's turns as owner);
 * whom it traded with most; and what it holds now.
 *
 * Each change that brought a token to the wallet comes with that token's next change (by
 * the holder rule: time, rank, order stored), whoever made it: that pair is the wallet's
 * turn in the token's chain of custody, as the token page shows it.
 */
export type WalletFigures = Omit<WalletInCollectionAnswer, 'coverage' | 'collection'>;

export const COUNTED =
  'Realised results count tokens bought and later sold in the same currency: sale price minus purchase price, per currency. A token that came by mint or by transfer has no known cost: its sales are shown apart, not in the result. Flips are such tokens held under 24 hours. A sale from the wallet to itself is neither bought nor sold. Tokens held are tokens, not ERC1155 copies.';

const TOP_COUNTERPARTIES = 10;
const HELD_TOKENS_SHOWN = 100;

// A change's own columns are read as the event list reads them.
interface ChangeRecord extends Pick<
  EventRecord,
  'token_id' | 'from_addr' | 'to_addr' | 'ts' | 'kind' | 'price' | 'currency'
> {
  next_to: Buffer | null;
  next_ts: string | null;
  next_kind: number | null;
  next_price: string | null;
  next_currency: Buffer | null;
}

// The token's next change after one to the wallet reads idx_changes_token backwards (oldest
// first from the given position); a change from the wallet needs none.
const CHANGES = `
  SELECT c.token_id::text AS token_id, c.from_addr, c.to_addr, c.ts, c.kind,
    c.price::text AS price, c.currency, n.to_addr AS next_to, n.ts AS next_ts,
    n.kind AS next_kind, n.price::text AS next_price, n.currency AS next_currency
  FROM idx_changes c
  LEFT JOIN LATERAL (
    SELECT n.to_addr, n.ts, n.kind, n.price, n.currency FROM idx_changes n
    WHERE c.to_addr = $1 AND n.contract_id = c.contract_id AND n.token_id = c.token_id
      AND (n.ts, n.rank, n.id) > (c.ts, c.rank, c.id)
    ORDER BY n.ts, n.rank, n.id LIMIT 1) n ON true
  WHERE c.contract_id = $2 AND (c.from_addr = $1 OR c.to_addr = $1)`;

/**
 * The custody module's event from a change's columns. No figure here reads a turn's
 * transaction, so it is not read (a busy wallet has thousands of turns).
 */
function custodyEvent(
  to: Buffer,
  ts: string,
  kind: number,
  price: string | null,
  currency: Buffer | null,
): CustodyEvent {
  return {
    kind: kindOf(kind),
    to: hexOf(to),
    timestamp: Number(ts),
    transactionHash: '',
    ...(price !== null && { price }),
    ...(currency && currency.length > 0 && { currencyAddress: hexOf(currency) }),
  };
}

/** The wallet's turn as the token's owner, from the change that brought it and the next. */
function turnOf(row: ChangeRecord): Custody | undefined {
  const acquired = custodyEvent(row.to_addr, row.ts, row.kind, row.price, row.currency);
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
          ),
        ];
  return custodyChain([acquired, ...next])[0];
}

/** Sums per currency key ('' for none named), then as the answer gives them. */
class PerCurrency<T extends object> {
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

const trades = () => new PerCurrency(() => ({ sales: 0, amount: 0n }));
const tradesList = (sums: ReturnType<typeof trades>): CurrencyTrades[] =>
  sums
    .list((entry, currency) => ({ currency, sales: entry.sales, amount: entry.amount.toString() }))
    .sort((a, b) => b.sales - a.sales);

/** The interval holdings are counted in: days for up to three months, weeks, then months. */
export function heldInterval(from: number, to: number): HeldInterval {
  const interval = chooseInterval({ from, to });
  return interval === 'hour' ? 'day' : interval;
}

/**
 * Tokens held at the end of each bucket from `from`'s to `to`'s: the turns begun before
 * the bucket's end and not ended by then.
 */
function heldSeries(
  turns: readonly { from: number; to: number | undefined }[],
  interval: HeldInterval,
  from: number,
  to: number,
) {
  const starts = turns.map((turn) => turn.from).sort((a, b) => a - b);
  const ends = turns.flatMap((turn) => (turn.to === undefined ? [] : [turn.to]));
  ends.sort((a, b) => a - b);
  const held: { start: number; tokens: number }[] = [];
  let [began, ended] = [0, 0];
  for (let start = intervalStart(from, interval); start <= to;) {
    const end = intervalEnd(start, interval);
    while (began < starts.length && starts[began]! < end) began += 1;
    while (ended < ends.length && ends[ended]! < end) ended += 1;
    held.push({ start, tokens: began - ended });
    start = end;
  }
  return held;
}

export async function walletInCollection(
  pool: pg.Pool,
  wallet: string,
  contractId: number,
  options: FigureOptions,
): Promise<WalletFigures> {
  const { rows } = await pool.query<ChangeRecord>(CHANGES, [addressBytes(wallet), contractId]);
  return figuresOf(wallet, rows, options);
}

/** The figures of a wallet with no change indexed in the collection. */
export const emptyWalletFigures = (wallet: string) => figuresOf(wallet, [], { now: 0 });

interface FigureOptions {
  interval?: HeldInterval;
  /** Unix seconds: the held series runs to its bucket. */
  now: number;
}

function figuresOf(
  wallet: string,
  rows: readonly ChangeRecord[],
  options: FigureOptions,
): WalletFigures {
  const counts = {
    mintsReceived: 0,
    bought: 0,
    sold: 0,
    transfersIn: 0,
    transfersOut: 0,
    burned: 0,
  };
  const [bought, sold, unknownCost] = [trades(), trades(), trades()];
  const results = new PerCurrency(() => ({
    tokens: 0,
    cost: 0n,
    proceeds: 0n,
    result: 0n,
    flips: 0,
  }));
  const parties = new Map<string, Counterparty>();
  const turns: { from: number; to: number | undefined }[] = [];
  const heldTokens: HeldToken[] = [];
  let [first, last, flips, crossCurrency] = [Infinity, -Infinity, 0, 0];

  for (const row of rows) {
    const [from, to, kind, ts] = [
      hexOf(row.from_addr),
      hexOf(row.to_addr),
      kindOf(row.kind),
      +row.ts,
    ];
    first = Math.min(first, ts);
    last = Math.max(last, ts);
    if (from !== to) {
      const incoming = to === wallet;
      const other = incoming ? from : to;
      const sale = kind === 'sale';
      if (incoming) {
        if (kind === 'mint') counts.mintsReceived += 1;
        else if (sale) counts.bought += 1;
        else counts.transfersIn += 1;
      } else if (kind === 'burn') counts.burned += 1;
      else if (sale) counts.sold += 1;
      else counts.transfersOut += 1;
      if (sale) {
        const side = (incoming ? bought : sold).at(row.currency ? hexOf(row.currency) : '');
        side.sales += 1;
        side.amount += BigInt(row.price ?? 0);
      }
      if (!isZeroAddress(other)) {
        let party = parties.get(other);
        if (!party) {
          party = {
            address: other,
            changes: 0,
            boughtFrom: 0,
            soldTo: 0,
            receivedFrom: 0,
            sentTo: 0,
          };
          parties.set(other, party);
        }
        party.changes += 1;
        if (sale) party[incoming ? 'boughtFrom' : 'soldTo'] += 1;
        else party[incoming ? 'receivedFrom' : 'sentTo'] += 1;
      }
    }
    if (to !== wallet) continue;
    const turn = turnOf(row);
    if (!turn) continue;
    turns.push({ from: turn.acquired.at, to: turn.disposed?.at });
    if (!turn.disposed) {
      heldTokens.push({
        tokenId: row.token_id,
        tokenIdHex: tokenIdToHex(BigInt(row.token_id)),
        since: turn.acquired.at,
        how: turn.acquired.how,
      });
      continue;
    }
    const paid = turn.acquired.price;
    const got = turn.disposed.how === 'sold' ? turn.disposed.price : undefined;
    if (turn.result && paid && got) {
      const entry = results.at(turn.result.currency);
      entry.tokens += 1;
      entry.cost += BigInt(paid.units);
      entry.proceeds += BigInt(got.units);
      entry.result += BigInt(turn.result.units);
      if (turn.flip) {
        entry.flips += 1;
        flips += 1;
      }
    } else if (got && !paid) {
      const entry = unknownCost.at(got.currency);
      entry.sales += 1;
      entry.amount += BigInt(got.units);
    } else if (got && paid) crossCurrency += 1;
  }

  const now = Math.max(options.now, last);
  const interval = options.interval ?? heldInterval(first, now);
  const ranked = [...parties.values()].sort(
    (a, b) => b.changes - a.changes || (a.address < b.address ? -1 : 1),
  );
  heldTokens.sort((a, b) => b.since - a.since || Number(BigInt(a.tokenId) - BigInt(b.tokenId)));
  return {
    address: wallet,
    interval,
    held: rows.length === 0 ? [] : heldSeries(turns, interval, first, now),
    holdsNow: heldTokens.length,
    changes: rows.length,
    firstActivity: rows.length === 0 ? null : first,
    lastActivity: rows.length === 0 ? null : last,
    counts,
    bought: tradesList(bought),
    sold: tradesList(sold),
    results: results
      .list((entry, currency): RealisedResult => ({
        currency,
        tokens: entry.tokens,
        cost: entry.cost.toString(),
        proceeds: entry.proceeds.toString(),
        result: entry.result.toString(),
        flips: entry.flips,
      }))
      .sort((a, b) => b.tokens - a.tokens),
    flips,
    unknownCost: tradesList(unknownCost),
    crossCurrency,
    counterparties: ranked.slice(0, TOP_COUNTERPARTIES),
    counterpartyCount: ranked.length,
    heldTokens: heldTokens.slice(0, HELD_TOKENS_SHOWN),
    counted: COUNTED,
  };
}
