import type { TokenEvent } from '../../api/types';
import { EventKindBadge } from '../../components/event-kind-badge';
import { Hash } from '../../components/hash';
import type { ListColumn } from '../../components/table-features';
import { eventComparators } from '../../lib/event-view';
import { formatUnits } from '../../lib/format';
import { EventTimeCell, FromCell, TokenCell, ToCell } from './event-cells';

export const EVENT_SORTS = ['kind', 'token', 'from', 'to', 'time', 'price'] as const;

type Row = { original: TokenEvent };
/** The table sorts with the same comparators as the export, so both show one order. */
const sortBy = (id: keyof typeof eventComparators) => {
  const compare = eventComparators[id]!;
  return (a: Row, b: Row) => compare(a.original, b.original);
};

const ALL_COLUMNS: ListColumn<TokenEvent>[] = [
  {
    id: 'kind',
    header: 'Event',
    accessorFn: (row) => row.kind,
    sortFn: sortBy('kind'),
    meta: { className: 'col-kind' },
    cell: ({ row }) => <EventKindBadge event={row.original} />,
  },
  {
    id: 'token',
    header: 'Token',
    accessorFn: (row) => row.tokenId,
    sortFn: sortBy('token'),
    meta: { className: 'col-token' },
    cell: TokenCell,
  },
  {
    id: 'from',
    header: 'From',
    accessorFn: (row) => row.from,
    sortFn: sortBy('from'),
    meta: { className: 'col-address' },
    cell: FromCell,
  },
  {
    id: 'to',
    header: 'To',
    accessorFn: (row) => row.to,
    sortFn: sortBy('to'),
    meta: { className: 'col-address' },
    cell: ToCell,
  },
  {
    id: 'time',
    header: 'Time',
    accessorFn: (row) => row.timestamp,
    sortFn: sortBy('time'),
    sortDescFirst: true,
    meta: { className: 'col-time' },
    cell: EventTimeCell,
  },
  {
    id: 'price',
    header: 'Price',
    accessorFn: (row) => row.price ?? '',
    sortFn: sortBy('price'),
    sortDescFirst: true,
    meta: { className: 'col-price' },
    cell: ({ row }) =>
      row.original.price ? (
        <span title={`${row.original.price} (smallest unit)`}>
          {formatUnits(row.original.price)}
          {row.original.marketplaceName && (
            <span className="muted small"> on {row.original.marketplaceName}</span>
          )}
        </span>
      ) : (
        <span className="muted">—</span>
      ),
  },
  {
    id: 'tx',
    header: 'Transaction',
    accessorFn: (row) => row.transactionHash,
    enableSorting: false,
    meta: { className: 'col-tx' },
    cell: ({ row }) => <Hash value={row.original.transactionHash} />,
  },
];

/** The event columns; a token's own page leaves out the token column. */
export const contractEventColumns = ALL_COLUMNS;
export const tokenEventColumns = ALL_COLUMNS.filter((column) => column.id !== 'token');
