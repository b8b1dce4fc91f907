import { Link } from 'react-router';
import { Badge } from '../../components/badge';
import { cellView } from '../../components/cell-view';
import { ContractImage } from '../../components/contract-image';
import type { RowCellProps } from '../../components/table-features';
import { TimeCell, type TimeView } from '../../components/time-cell';
import { shortenHex } from '../../lib/address';
import type { RankedContract } from '../../lib/answers';
import { formatCount } from '../../lib/format';
import { exactAmount, formatAmount, type Currency } from '../../lib/price';
import { notIndexed, volumeIn } from '../../lib/ranking-view';
import { hrefs } from '../../lib/routes';
import { formatDay } from '../../lib/time';
import styles from './ranking-columns.module.css';

/** What the cells read of the page: the currency of volumes and how times are shown. */
export interface RankingCellView extends TimeView {
  currency: Currency;
  /** Collections whose figures changed with new rows since the ranking was read before. */
  updated: ReadonlySet<string>;
}

export const RankingCells = cellView<RankingCellView>('Ranking');
const { useCellView } = RankingCells;

type CellProps = RowCellProps<RankedContract>;

/** The name a collection goes by: its own, else its short address. */
export const collectionName = (row: RankedContract) =>
  row.name || `Contract ${shortenHex(row.address)}`;

/** How much of the collection's history its figures cover, when not the whole of it. */
export function coverageText(row: RankedContract): string | null {
  if (row.complete) return null;
  return row.indexedBack === null
    ? 'not indexed yet'
    : `indexing · back to ${formatDay(row.indexedBack)}`;
}

const COVERAGE_NOTE =
  'The index has not read this collection’s whole history yet: its figures cover only what is read so far.';

/** Image, name (the link that opens the collection), symbol and how far it is indexed. */
export function CollectionCell({ row }: CellProps) {
  const { updated } = useCellView();
  const contract = row.original;
  const name = collectionName(contract);
  const coverage = coverageText(contract);
  return (
    <div className={styles.collection}>
      <ContractImage address={contract.address} image={contract.image} name={name} />
      <div className={styles.names}>
        <Link
          className={styles.link}
          to={hrefs.contractEvents(contract.address)}
          title={name}
          data-row-link=""
        >
          <span className={contract.name ? undefined : 'muted'}>{name}</span>
        </Link>
        <span className={`${styles.sub} small`}>
          {updated.has(contract.address) && (
            <>
              <Badge>Updated</Badge>{' '}
            </>
          )}
          {contract.symbol && <span className="muted">{contract.symbol}</span>}
          {contract.symbol && coverage && <span className="muted"> · </span>}
          {coverage && (
            <span className={styles.coverage} title={COVERAGE_NOTE}>
              {coverage}
            </span>
          )}
        </span>
      </div>
    </div>
  );
}

const Unknown = () => (
  <span className="muted" title="Not indexed yet">
    —
  </span>
);

/** A count of the window, or "—" while nothing of the collection is indexed. */
export function countCell(figure: 'events' | 'sales' | 'holders') {
  return function CountCell({ row }: CellProps) {
    if (notIndexed(row.original)) return <Unknown />;
    const value = row.original[figure];
    return <span className={value === 0 ? 'muted' : undefined}>{formatCount(value)}</span>;
  };
}

/** The window's volume in the chosen currency, exact in the tooltip. */
export function VolumeCell({ row }: CellProps) {
  const { currency } = useCellView();
  if (notIndexed(row.original)) return <Unknown />;
  const units = volumeIn(row.original.volume, currency.address);
  if (units === 0n) return <span className="muted">0</span>;
  return (
    <span title={`${exactAmount(units, currency.decimals)} ${currency.symbol}`}>
      {formatAmount(units, currency.decimals, 3)} {currency.symbol}
    </span>
  );
}

export function LastActivityCell({ row }: CellProps) {
  const { display, zone, nowMs } = useCellView();
  const seconds = row.original.lastActivity;
  if (seconds === null)
    return notIndexed(row.original) ? <Unknown /> : <span className="muted">—</span>;
  return <TimeCell seconds={seconds} display={display} nowMs={nowMs} zone={zone} />;
}

/** The place in the ranking; none for a collection with no activity in the window. */
export function RankCell({ row }: CellProps) {
  return row.original.events > 0 ? <>{row.index + 1}</> : <span className="muted">–</span>;
}
