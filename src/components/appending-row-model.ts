import {
  constructRow,
  makeObjectMap,
  type Row,
  type RowData,
  type RowModel,
  type Table,
  type TableFeatures,
} from '@tanstack/react-table';
import { startsWith } from '../lib/arrays';

/**
 * Models kept: while a list loads, React renders the table with the events on screen
 * and, at a lower priority, with the newest (useDeferredValue). When a new page
 * interrupts the low-priority render, the next render shows the older events again;
 * with only the newest model kept, that render would build every row from scratch.
 */
const KEPT = 2;

/**
 * The table's core row model (one `Row` per item), built like TanStack's own but kept
 * across updates that only add items at the end, as a list does while it loads: the
 * rows already built are reused, so a new page costs its own rows, not a row for every
 * event loaded so far, and rows on screen keep their identity (their memoised renders
 * stay valid). Any other change (another order, a filter, new items at the top) builds
 * every row again. Flat lists only: sub-rows are not read.
 */
export function createAppendingRowModel() {
  return <TFeatures extends TableFeatures, TData extends RowData>(
    table: Table<TFeatures, TData>,
  ) => {
    let kept: { data: readonly TData[]; model: RowModel<TFeatures, TData> }[] = [];
    return (): RowModel<TFeatures, TData> => {
      const data = table.options.data;
      const known = kept.find((entry) => entry.data === data);
      if (known) return known.model;
      const base = kept.find((entry) => startsWith(data, entry.data));
      const rows: Row<TFeatures, TData>[] = base ? base.model.rows.slice() : [];
      for (let index = base?.data.length ?? 0; index < data.length; index++) {
        const original = data[index]!;
        rows.push(constructRow(table, table.getRowId(original, index), original, index, 0));
      }
      const model = modelOf(rows);
      kept = [{ data, model }, ...kept.slice(0, KEPT - 1)];
      return model;
    };
  };
}

function modelOf<TFeatures extends TableFeatures, TData extends RowData>(
  rows: Row<TFeatures, TData>[],
): RowModel<TFeatures, TData> {
  let byId: Record<string, Row<TFeatures, TData>> | undefined;
  return {
    rows,
    flatRows: rows,
    // Built when first asked for (TanStack's own sorting, `getRow`): a list that loads
    // page after page never needs it, and 100,000 long keys are costly to index.
    get rowsById() {
      if (!byId) {
        byId = makeObjectMap<Row<TFeatures, TData>>();
        for (const row of rows) byId[row.id] = row;
      }
      return byId;
    },
  };
}
