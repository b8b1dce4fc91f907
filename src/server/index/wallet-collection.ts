import type pg from 'pg';
import { isZeroAddress } from '../../lib/address';
import { chooseInterval, intervalEnd, intervalStart } from '../../lib/activity';
import type {
  Counterparty,
  CurrencyTrades,
  HeldInterval,
  HeldToken,
  WalletInCollectionAnswer,
} from '../../lib/answers';
import { tokenIdToHex } from '../../lib/token-id';
import { kindOf } from './figures';
import { addressBytes, hexOf } from './sql';
import {
  NEXT_CHANGE,
  PerCurrency,
  RealisedResults,
  TURN_COLUMNS,
  turnOf,
  type TurnRecord,
} from './wallet-turns';

/**
 * One wallet inside one collection, from its changes of hands there: what it held at the
 * end of each day, week or month; what it bought and sold per currency; mints received
 * and transfers in and out; the realised result of each token it bought and later sold
 * (the token page's chain of custody, `custodyChain`, for the wallet's turns as owner);
 * whom it traded with most; and what it holds now. Its turns as a token's owner are
 * wallet-turns.ts's.
 */
export type WalletFigures = Omit<WalletInCollectionAnswer, 'coverage' | 'collection'>;

export const COUNTED =
  'Realised results count tokens bought and later sold in the same currency: sale price minus purchase price, per currency. A token that came by mint or by transfer has no known cost: its sales are shown apart, not in the result. Flips are such tokens held under 24 hours. A sale from the wallet to itself is neither bought nor sold. Tokens held are tokens, not ERC1155 copies.';

const TOP_COUNTERPARTIES = 10;
const HELD_TOKENS_SHOWN = 100;

/** A change to or from the wallet: its turn's columns, and its sender. */
interface ChangeRecord extends TurnRecord {
  from_addr: Buffer;
}

const CHANGES = `
  SELECT c.from_addr, ${TURN_COLUMNS}
  FROM idx_changes c LEFT JOIN ${NEXT_CHANGE} ON true
  WHERE c.contract_id = $2 AND (c.from_addr = $1 OR c.to_addr = $1)`;

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

/** What figuresOf adds up over the wallet's changes, one change at a time. */
function newTally() {
  return {
    counts: {
      mintsReceived: 0,
      bought: 0,
      sold: 0,
      transfersIn: 0,
      transfersOut: 0,
      burned: 0,
    },
    bought: trades(),
    sold: trades(),
    unknownCost: trades(),
    results: new RealisedResults(),
    parties: new Map<string, Counterparty>(),
    turns: [] as { from: number; to: number | undefined }[],
    heldTokens: [] as HeldToken[],
    flips: 0,
    crossCurrency: 0,
  };
}

type Tally = ReturnType<typeof newTally>;

/** A change between the wallet and another: its counts, its sale's amount, its party. */
function tallyChange(tally: Tally, wallet: string, row: ChangeRecord, from: string, to: string) {
  const { counts } = tally;
  const kind = kindOf(row.kind);
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
    const side = (incoming ? tally.bought : tally.sold).at(row.currency ? hexOf(row.currency) : '');
    side.sales += 1;
    side.amount += BigInt(row.price ?? 0);
  }
  if (isZeroAddress(other)) return;
  let party = tally.parties.get(other);
  if (!party) {
    party = { address: other, changes: 0, boughtFrom: 0, soldTo: 0, receivedFrom: 0, sentTo: 0 };
    tally.parties.set(other, party);
  }
  party.changes += 1;
  if (sale) party[incoming ? 'boughtFrom' : 'soldTo'] += 1;
  else party[incoming ? 'receivedFrom' : 'sentTo'] += 1;
}

/** A change to the wallet: the turn it begins, held still or ended with its result. */
function tallyTurn(tally: Tally, row: ChangeRecord) {
  const turn = turnOf(row);
  if (!turn) return;
  tally.turns.push({ from: turn.acquired.at, to: turn.disposed?.at });
  if (!turn.disposed) {
    tally.heldTokens.push({
      tokenId: row.token_id,
      tokenIdHex: tokenIdToHex(BigInt(row.token_id)),
      since: turn.acquired.at,
      how: turn.acquired.how,
    });
    return;
  }
  const paid = turn.acquired.price;
  const got = turn.disposed.how === 'sold' ? turn.disposed.price : undefined;
  if (tally.results.add(turn)) {
    if (turn.flip) tally.flips += 1;
  } else if (got && !paid) {
    const entry = tally.unknownCost.at(got.currency);
    entry.sales += 1;
    entry.amount += BigInt(got.units);
  } else if (got && paid) tally.crossCurrency += 1;
}

function figuresOf(
  wallet: string,
  rows: readonly ChangeRecord[],
  options: FigureOptions,
): WalletFigures {
  const tally = newTally();
  let [first, last] = [Infinity, -Infinity];
  for (const row of rows) {
    const [from, to, ts] = [hexOf(row.from_addr), hexOf(row.to_addr), +row.ts];
    first = Math.min(first, ts);
    last = Math.max(last, ts);
    if (from !== to) tallyChange(tally, wallet, row, from, to);
    if (to === wallet) tallyTurn(tally, row);
  }

  const now = Math.max(options.now, last);
  const interval = options.interval ?? heldInterval(first, now);
  const ranked = [...tally.parties.values()].sort(
    (a, b) => b.changes - a.changes || (a.address < b.address ? -1 : 1),
  );
  const { heldTokens } = tally;
  heldTokens.sort((a, b) => b.since - a.since || Number(BigInt(a.tokenId) - BigInt(b.tokenId)));
  return {
    address: wallet,
    interval,
    held: rows.length === 0 ? [] : heldSeries(tally.turns, interval, first, now),
    holdsNow: heldTokens.length,
    changes: rows.length,
    firstActivity: rows.length === 0 ? null : first,
    lastActivity: rows.length === 0 ? null : last,
    counts: tally.counts,
    bought: tradesList(tally.bought),
    sold: tradesList(tally.sold),
    results: tally.results.list(),
    flips: tally.flips,
    unknownCost: tradesList(tally.unknownCost),
    crossCurrency: tally.crossCurrency,
    counterparties: ranked.slice(0, TOP_COUNTERPARTIES),
    counterpartyCount: ranked.length,
    heldTokens: heldTokens.slice(0, HELD_TOKENS_SHOWN),
    counted: COUNTED,
  };
}
