import type { TokenEvent } from '../../lib/token-event';
import type { TimeDisplay } from '../../lib/view-state';
import { EventKindBadge } from '../event-kind-badge';
import { Hash } from '../hash';
import { Price } from '../price';
import { WashFlag } from '../wash-flag';
import { fieldColumn, type ListColumn } from '../table-features';
import { EventTimeCell, FromCell, TimeHeader, TokenCell, ToCell } from './event-cells';
import styles from './event-columns.module.css';

/**
 * The columns of an event table. The ids of the sortable ones are the sorts of
 * `EVENT_SORTS` (lib/event-list.ts): the table orders its rows with `sortEvents`. A
 * column's accessor makes it sortable and, unless `sortDescFirst` says, tells TanStack
 * the direction of a first click (ascending for text). Widths are in rem, wide enough
 * for their longest content; From and To share the rest; on a narrow table the
 * marketplace, then the transaction, give way, and the price only last: it is what people
 * come for (see column-fit.ts). The classes place each cell on a phone's card. From and
 * To are not sortable: the index orders by time, price, token and kind.
 */
/** The time column's width for each way of showing times: exact times are longer. */
const TIME_WIDTHS: Record<TimeDisplay, number> = { relative: 9, absolute: 13.5 };
/** The price column's: a flagged sale's badge ("wash?") follows its price on the line. */
const PRICE_WIDTH = 9.4;
const FLAGGED_PRICE_WIDTH = 13;

/** What a live row's "New" badge adds before its time. */
const FRESH_TIME_EXTRA = 3;

/**
 * The widths that depend on what is shown: the times' form, whether a row is flagged,
 * and whether rows may be marked new.
 */
export const eventColumnWidths = (display: TimeDisplay, flagged: boolean, fresh = false) => ({
  time: TIME_WIDTHS[display] + (fresh ? FRESH_TIME_EXTRA : 0),
  price: flagged ? FLAGGED_PRICE_WIDTH : PRICE_WIDTH,
});

/** The sender or the receiver: not sortable, sharing the width the others leave. */
function partyColumn(
  party: 'from' | 'to',
  header: string,
  cell: ListColumn<TokenEvent>['cell'],
): ListColumn<TokenEvent> {
  return fieldColumn(party, styles, {
    header,
    enableSorting: false,
    // An address, its filter button beside it.
    meta: { minWidth: 8.5 },
    cell,
  });
}

const ALL_COLUMNS: ListColumn<TokenEvent>[] = [
  {
    id: 'kind',
    header: 'Event',
    accessorFn: (row) => row.kind,
    meta: { className: styles.kind, width: 6.25, cardLabel: false },
    cell: ({ row }) => <EventKindBadge event={row.original} />,
  },
  {
    id: 'token',
    header: 'Token',
    accessorFn: (row) => row.tokenId,
    meta: { className: styles.token, width: 6 },
    cell: TokenCell,
  },
  partyColumn('from', 'From', FromCell),
  partyColumn('to', 'To', ToCell),
  {
    id: 'time',
    header: TimeHeader,
    accessorFn: (row) => row.timestamp,
    sortDescFirst: true,
    meta: { className: styles.time, width: TIME_WIDTHS.relative, cardLabel: false },
    cell: EventTimeCell,
  },
  {
    id: 'price',
    header: 'Price',
    accessorFn: (row) => row.price ?? '',
    sortDescFirst: true,
    meta: { className: styles.price, width: PRICE_WIDTH, priority: 3 },
    cell: ({ row }) => (
      <>
        <Price event={row.original} narrow />
        {row.original.washFlags && <WashFlag reasons={row.original.washFlags} />}
      </>
    ),
  },
  {
    id: 'market',
    header: 'Market',
    accessorFn: (row) => row.marketplaceName ?? '',
    enableSorting: false,
    meta: { className: styles.market, width: 7, priority: 1 },
    cell: ({ row }) =>
      row.original.marketplaceName ? (
        <span className="muted" title={row.original.marketplaceName}>
          {row.original.marketplaceName}
        </span>
      ) : null,
  },
  {
    id: 'tx',
    header: 'Transaction',
    accessorFn: (row) => row.transactionHash,
    enableSorting: false,
    meta: { className: styles.tx, width: 10.25, priority: 2, cardLabel: false },
    cell: ({ row }) => <Hash value={row.original.transactionHash} />,
  },
];

/**
 * The columns for rows that are all sales (a sale list, flagged sales alone): the Event
 * column says "Sale" on every row, so on a narrow table it gives way after the
 * marketplace and the transaction, before the price (a flagged price is wider: at 768 px
 * it would otherwise leave with its badge).
 */
export function salesOnlyColumns(columns: ListColumn<TokenEvent>[]): ListColumn<TokenEvent>[] {
  return columns.map((column) =>
    column.id === 'kind' ? { ...column, meta: { ...column.meta, priority: 2.5 } } : column,
  );
}

/** The class of an event table: its cards' layout on a phone. */
export const eventTableClass = styles.cards;

/** The event columns; a token's own page leaves out the token column. */
export const contractEventColumns = ALL_COLUMNS;
export const tokenEventColumns = ALL_COLUMNS.filter((column) => column.id !== 'token');
