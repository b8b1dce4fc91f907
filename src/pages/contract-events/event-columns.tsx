import type { TokenEvent } from '../../api/types';
import { Address } from '../../components/address';
import { EventKindBadge } from '../../components/event-kind-badge';
import { Hash } from '../../components/hash';
import type { ListColumn } from '../../components/table-features';
import { TimeCell } from '../../components/time-cell';
import { TokenIdLink } from '../../components/token-id';
import { compareTokenIds } from '../../lib/event-view';
import { formatUnits } from '../../lib/format';
import type { TimeDisplay } from '../../lib/view-state';

export const EVENT_SORTS = ['kind', 'token', 'from', 'to', 'time', 'price'] as const;

export interface EventColumnContext {
  display: TimeDisplay;
  zone: 'utc' | 'local';
  nowMs: number;
  activeAddress: string | null;
  onFilterAddress?: (address: string) => void;
  /** Hide the token column on a token's own page. */
  showToken?: boolean;
}

type Row = { original: TokenEvent };
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const compareBig = (a: string | undefined, b: string | undefined) =>
  compareTokenIds(a ?? '', b ?? '');

export function eventColumns(context: EventColumnContext): ListColumn<TokenEvent>[] {
  const { display, zone, nowMs, activeAddress, onFilterAddress, showToken = true } = context;
  const columns: ListColumn<TokenEvent>[] = [
    {
      id: 'kind',
      header: 'Event',
      accessorFn: (row) => row.kind,
      sortFn: (a: Row, b: Row) => compareText(a.original.label, b.original.label),
      meta: { className: 'col-kind' },
      cell: ({ row }) => <EventKindBadge event={row.original} />,
    },
    {
      id: 'token',
      header: 'Token',
      accessorFn: (row) => row.tokenId,
      sortFn: (a: Row, b: Row) => compareTokenIds(a.original.tokenId, b.original.tokenId),
      meta: { className: 'col-token' },
      cell: ({ row }) => (
        <TokenIdLink contract={row.original.contractAddress} tokenId={row.original.tokenId} />
      ),
    },
    {
      id: 'from',
      header: 'From',
      accessorFn: (row) => row.from,
      sortFn: (a: Row, b: Row) => compareText(a.original.from, b.original.from),
      meta: { className: 'col-address' },
      cell: ({ row }) => (
        <Address
          value={row.original.from}
          onFilter={onFilterAddress}
          active={row.original.from === activeAddress}
        />
      ),
    },
    {
      id: 'to',
      header: 'To',
      accessorFn: (row) => row.to,
      sortFn: (a: Row, b: Row) => compareText(a.original.to, b.original.to),
      meta: { className: 'col-address' },
      cell: ({ row }) => (
        <Address
          value={row.original.to}
          onFilter={onFilterAddress}
          active={row.original.to === activeAddress}
        />
      ),
    },
    {
      id: 'time',
      header: 'Time',
      accessorFn: (row) => row.timestamp,
      sortFn: (a: Row, b: Row) => a.original.timestamp - b.original.timestamp,
      sortDescFirst: true,
      meta: { className: 'col-time' },
      cell: ({ row }) => (
        <TimeCell seconds={row.original.timestamp} display={display} nowMs={nowMs} zone={zone} />
      ),
    },
    {
      id: 'price',
      header: 'Price',
      accessorFn: (row) => row.price ?? '',
      sortFn: (a: Row, b: Row) => compareBig(a.original.price, b.original.price),
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
  return showToken ? columns : columns.filter((column) => column.id !== 'token');
}
