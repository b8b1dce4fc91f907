import {
  fieldColumn,
  rankColumn,
  type ColumnMeta,
  type ListColumn,
} from '../../components/table-features';
import type { RankedContract } from '../../lib/answers';
import type { Currency } from '../../lib/price';
import { CollectionCell, countCell, LastActivityCell, RankCell, VolumeCell } from './ranking-cells';
import styles from './ranking-columns.module.css';

/** The class of the ranking's table: its cards' layout on a phone. */
export const rankingTableClass = styles.cards;

/** A count of the window (events, sales, holders): sortable, largest first. */
function countColumn(
  figure: 'events' | 'sales' | 'holders',
  header: string,
  meta: ColumnMeta,
): ListColumn<RankedContract> {
  return fieldColumn(figure, styles, {
    header,
    sortDescFirst: true,
    meta,
    cell: countCell(figure),
  });
}

/**
 * The ranking's columns. The ids of the sortable ones are the query API's sorts
 * (`RANKING_SORTS`): the server orders the rows, the table only shows the sort. Numbers
 * sort largest first on a first click. On a narrow table the rank, last activity,
 * holders and sales give way, in that order (see column-fit.ts).
 */
export function rankingColumns(currency: Currency): ListColumn<RankedContract>[] {
  return [
    rankColumn(styles.rank, RankCell),
    {
      id: 'name',
      header: 'Collection',
      accessorFn: (row) => row.name ?? '',
      meta: { className: styles.name, minWidth: 14, cardLabel: false },
      cell: CollectionCell,
    },
    countColumn('events', 'Events', { width: 6.5 }),
    countColumn('sales', 'Sales', { width: 6.5, priority: 4 }),
    {
      id: 'volume',
      header: `Volume (${currency.symbol})`,
      accessorFn: (row) => row.volume.length,
      sortDescFirst: true,
      meta: { className: styles.volume, width: 11 },
      cell: VolumeCell,
    },
    countColumn('holders', 'Holders', { width: 7.5, priority: 3 }),
    {
      id: 'last',
      header: 'Last activity',
      accessorFn: (row) => row.lastActivity ?? 0,
      sortDescFirst: true,
      meta: { className: styles.last, width: 12, priority: 2 },
      cell: LastActivityCell,
    },
  ];
}
