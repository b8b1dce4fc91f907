import { Address } from '../../components/address';
import { cellView } from '../../components/cell-view';
import { rankColumn, type ListColumn, type RowCellProps } from '../../components/table-features';
import { TimeCell, timeHeading, type TimeView } from '../../components/time-cell';
import { HOLDER_SINCE_NOTE, type Holder } from '../../lib/answers';
import { formatCount, formatShare } from '../../lib/format';
import type { TimeZoneChoice } from '../../lib/time';
import type { TimeDisplay } from '../../lib/view-state';
import styles from './holders-page.module.css';

/** What the cells read of the page: the tokens held in all (for shares) and the time display. */
export interface HolderCellView extends TimeView {
  tokensHeld: number;
}

export const HolderCells = cellView<HolderCellView>('Holder');
const { useCellView } = HolderCells;

type CellProps = RowCellProps<Holder>;

/**
 * The first columns of every list of holders: the place in the server's order, as it
 * came, and the owner, short, as a link to its wallet page (the whole address in the
 * tooltip).
 */
export function rankAndOwnerColumns<T extends { owner: string }>(): ListColumn<T>[] {
  return [
    rankColumn(styles.rank, ({ row }: RowCellProps<T>) => <>{row.index + 1}</>),
    {
      id: 'owner',
      header: 'Owner',
      enableSorting: false,
      meta: { className: styles.owner, minWidth: 11, cardLabel: false },
      cell: ({ row }: RowCellProps<T>) => <Address value={row.original.owner} wallet />,
    },
  ];
}

const TokensCell = ({ row }: CellProps) => <>{formatCount(row.original.tokens)}</>;

function ShareCell({ row }: CellProps) {
  const { tokensHeld } = useCellView();
  return <>{formatShare(tokensHeld > 0 ? row.original.tokens / tokensHeld : 0)}</>;
}

function SinceCell({ row }: CellProps) {
  const { display, zone, nowMs } = useCellView();
  const since = row.original.since;
  if (since <= 0) return <span className="muted">—</span>;
  return <TimeCell seconds={since} display={display} nowMs={nowMs} zone={zone} />;
}

/**
 * The holders' columns, none sortable: the server orders them (largest first). On a narrow
 * table the rank, then since when, then the share give way (see column-fit.ts).
 */
export function holderColumns(display: TimeDisplay, zone: TimeZoneChoice): ListColumn<Holder>[] {
  return [
    ...rankAndOwnerColumns<Holder>(),
    {
      id: 'tokens',
      header: 'Tokens',
      enableSorting: false,
      meta: { className: styles.tokens, width: 6.5 },
      cell: TokensCell,
    },
    {
      id: 'share',
      header: 'Share',
      enableSorting: false,
      meta: { className: styles.share, width: 6.5, priority: 3 },
      cell: ShareCell,
    },
    {
      id: 'since',
      header: timeHeading(display, zone, 'Since'),
      enableSorting: false,
      meta: {
        className: styles.since,
        width: display === 'relative' ? 10 : 13,
        priority: 2,
        note: HOLDER_SINCE_NOTE,
      },
      cell: SinceCell,
    },
  ];
}
