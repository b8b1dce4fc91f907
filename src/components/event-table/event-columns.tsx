import type { TokenEvent } from '../../lib/token-event';
import { EventKindBadge } from '../event-kind-badge';
import { Hash } from '../hash';
import { Price } from '../price';
import type { ListColumn } from '../table-features';
import { EventTimeCell, FromCell, TokenCell, ToCell } from './event-cells';
import styles from './event-columns.module.css';

/**
 * The columns of an event table. The ids of the sortable ones are the sorts of
 * `EVENT_SORTS` (lib/event-list.ts): the table orders its rows with `sortEvents`. A
 * column's accessor makes it sortable and, unless `sortDescFirst` says, tells TanStack
 * the direction of a first click (ascending for text).
 */
const ALL_COLUMNS: ListColumn<TokenEvent>[] = [
  {
    id: 'kind',
    header: 'Event',
    accessorFn: (row) => row.kind,
    meta: { className: styles.kind },
    cell: ({ row }) => <EventKindBadge event={row.original} />,
  },
  {
    id: 'token',
    header: 'Token',
    accessorFn: (row) => row.tokenId,
    meta: { className: styles.token },
    cell: TokenCell,
  },
  {
    id: 'from',
    header: 'From',
    accessorFn: (row) => row.from,
    cell: FromCell,
  },
  {
    id: 'to',
    header: 'To',
    accessorFn: (row) => row.to,
    cell: ToCell,
  },
  {
    id: 'time',
    header: 'Time',
    accessorFn: (row) => row.timestamp,
    sortDescFirst: true,
    meta: { className: styles.time },
    cell: EventTimeCell,
  },
  {
    id: 'price',
    header: 'Price',
    accessorFn: (row) => row.price ?? '',
    sortDescFirst: true,
    meta: { className: styles.price },
    cell: ({ row }) => (
      <>
        <Price event={row.original} />
        {row.original.marketplaceName && (
          <span className="muted small"> on {row.original.marketplaceName}</span>
        )}
      </>
    ),
  },
  {
    id: 'tx',
    header: 'Transaction',
    accessorFn: (row) => row.transactionHash,
    enableSorting: false,
    meta: { className: styles.tx },
    cell: ({ row }) => <Hash value={row.original.transactionHash} />,
  },
];

/** The event columns; a token's own page leaves out the token column. */
export const contractEventColumns = ALL_COLUMNS;
export const tokenEventColumns = ALL_COLUMNS.filter((column) => column.id !== 'token');
