import {
  constructRow,
  makeObjectMap,
  type Row,
  type RowData,
  type RowModel,
  type Table,
  type TableFeatures,
} from '@tanstack/react-table';
import { createGrowingFold } from '../lib/arrays';

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
    const build = createGrowingFold<TData, RowModel<TFeatures, TData>>(
      {
        start: () => modelOf([]),
        // Kept models stay as they were: a render may still show the older data.
        resume: (earlier) => modelOf(earlier.rows.slice()),
        add: (model, original, index) => {
          model.rows.push(constructRow(table, table.getRowId(original, index), original, index, 0));
        },
      },
      KEPT,
    );
    return (): RowModel<TFeatures, TData> => build(table.options.data);
  };
}

function modelOf<TFeatures extends TableFeatures, TData extends RowData>(
  rows: Row<TFeatures, TData>[],
): RowModel<TFeatures, TData> {
  let byId: Record<string, Row<TFeatures, TData>> | undefined;
  return {
    rows,
    flatRows: rows,
    // Built when first asked for (`getRow`): a list that loads page after page never
    // needs it, and 100,000 long keys are costly to index.
    get rowsById() {
      if (!byId) {
        byId = makeObjectMap<Row<TFeatures, TData>>();
        for (const row of rows) byId[row.id] = row;
      }
      return byId;
    },
  };
}
