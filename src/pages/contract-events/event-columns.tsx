import { createContext, useContext } from 'react';
import type { TokenEvent } from '../../api/types';
import { Address } from '../../components/address';
import { EventKindBadge } from '../../components/event-kind-badge';
import { Hash } from '../../components/hash';
import type { ListColumn } from '../../components/table-features';
import { TimeCell } from '../../components/time-cell';
import { TokenIdLink } from '../../components/token-id';
import { eventComparators } from '../../lib/event-view';
import { formatUnits } from '../../lib/format';
import type { TimeDisplay } from '../../lib/view-state';

export const EVENT_SORTS = ['kind', 'token', 'from', 'to', 'time', 'price'] as const;

/**
 * What cells need from the page: display choices and the address filter and tracing.
 * It reaches cells through context, not through the column definitions: columns stay
 * the same objects, so hovering an address or the clock ticking re-renders the cells
 * that read it instead of re-creating (and remounting) every cell of the table.
 */
export interface EventView {
  display: TimeDisplay;
  zone: 'utc' | 'local';
  nowMs: number;
  activeAddress: string | null;
  onFilterAddress?: (address: string) => void;
  tracedAddress?: string | null;
  onTrace?: (address: string | null) => void;
}

export const EventViewContext = createContext<EventView>({
  display: 'relative',
  zone: 'utc',
  nowMs: 0,
  activeAddress: null,
});

function AddressCell({ value }: { value: string }) {
  const view = useContext(EventViewContext);
  return (
    <Address
      value={value}
      onFilter={view.onFilterAddress}
      active={value === view.activeAddress}
      onTrace={view.onTrace}
      traced={value === view.tracedAddress}
    />
  );
}

function EventTime({ seconds }: { seconds: number }) {
  const { display, nowMs, zone } = useContext(EventViewContext);
  return <TimeCell seconds={seconds} display={display} nowMs={nowMs} zone={zone} />;
}

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
    cell: ({ row }) => (
      <TokenIdLink contract={row.original.contractAddress} tokenId={row.original.tokenId} />
    ),
  },
  {
    id: 'from',
    header: 'From',
    accessorFn: (row) => row.from,
    sortFn: sortBy('from'),
    meta: { className: 'col-address' },
    cell: ({ row }) => <AddressCell value={row.original.from} />,
  },
  {
    id: 'to',
    header: 'To',
    accessorFn: (row) => row.to,
    sortFn: sortBy('to'),
    meta: { className: 'col-address' },
    cell: ({ row }) => <AddressCell value={row.original.to} />,
  },
  {
    id: 'time',
    header: 'Time',
    accessorFn: (row) => row.timestamp,
    sortFn: sortBy('time'),
    sortDescFirst: true,
    meta: { className: 'col-time' },
    cell: ({ row }) => <EventTime seconds={row.original.timestamp} />,
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
