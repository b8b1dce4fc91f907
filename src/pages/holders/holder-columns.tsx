import { createContext, useContext } from 'react';
import { Link } from 'react-router';
import type { ListColumn } from '../../components/table-features';
import { TimeCell } from '../../components/time-cell';
import { shortenHex } from '../../lib/address';
import type { Holder } from '../../lib/answers';
import { formatCount } from '../../lib/format';
import { hrefs } from '../../lib/routes';
import type { TimeZoneChoice } from '../../lib/time';
import type { TimeDisplay } from '../../lib/view-state';
import { formatShare } from './holders-figures';
import styles from './holders-page.module.css';

/** What the cells read of the page: the tokens held in all (for shares) and the time display. */
export interface HolderCellView {
  tokensHeld: number;
  display: TimeDisplay;
  zone: TimeZoneChoice;
  nowMs: number;
}

export const HolderCellContext = createContext<HolderCellView | null>(null);

function useCellView(): HolderCellView {
  const view = useContext(HolderCellContext);
  if (!view) throw new Error('Holder cells are rendered inside HolderCellContext.');
  return view;
}

interface CellProps {
  row: { original: Holder; index: number };
}

/** The place in the answer's order (largest first): the server's order, as it came. */
const RankCell = ({ row }: CellProps) => <>{row.index + 1}</>;

/** The owner, short, as a link to its wallet page (the whole address in the tooltip). */
function OwnerCell({ row }: CellProps) {
  const owner = row.original.owner;
  return (
    <Link className="mono" to={hrefs.wallet(owner)} title={`${owner} — open this wallet`}>
      {shortenHex(owner)}
    </Link>
  );
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

/** "Since", or "Since (UTC)" / "Since (local)" over exact times. */
const sinceHeading = (display: TimeDisplay, zone: TimeZoneChoice) =>
  display === 'relative' ? 'Since' : zone === 'utc' ? 'Since (UTC)' : 'Since (local)';

/**
 * The holders' columns, none sortable: the server orders them (largest first). On a narrow
 * table the rank, then since when, then the share give way (see column-fit.ts).
 */
export function holderColumns(display: TimeDisplay, zone: TimeZoneChoice): ListColumn<Holder>[] {
  return [
    {
      id: 'rank',
      header: '#',
      enableSorting: false,
      meta: { className: styles.rank, width: 4, priority: 1, cardLabel: false },
      cell: RankCell,
    },
    {
      id: 'owner',
      header: 'Owner',
      enableSorting: false,
      meta: { className: styles.owner, minWidth: 11, cardLabel: false },
      cell: OwnerCell,
    },
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
      header: sinceHeading(display, zone),
      enableSorting: false,
      meta: { className: styles.since, width: display === 'relative' ? 10 : 13, priority: 2 },
      cell: SinceCell,
    },
  ];
}
