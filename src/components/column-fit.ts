/**
 * Which columns a table shows at a width: every column keeps a readable width, and when
 * the table is too narrow for all of them the least needed ones give way, lowest
 * `priority` first (a column without one always stays). Pure, so it is tested without a
 * browser; the data table measures its width and asks this.
 */
export interface ColumnFit {
  id: string;
  /** Width in rem of a fixed column. */
  width?: number;
  /** Width in rem a shared column (one without `width`) needs at least. */
  minWidth?: number;
  priority?: number;
}

/** The columns to show, in their order, at `available` rem; all of them when it is unknown (0). */
export function fitColumns<T extends ColumnFit>(columns: readonly T[], available: number): T[] {
  if (!(available > 0)) return [...columns];
  const need = (column: T) => column.width ?? column.minWidth ?? 0;
  let total = columns.reduce((sum, column) => sum + need(column), 0);
  const hidden = new Set<T>();
  const givingWay = columns
    .filter((column) => column.priority !== undefined)
    .sort((a, b) => (a.priority ?? 0) - (b.priority ?? 0));
  for (const column of givingWay) {
    if (total <= available) break;
    hidden.add(column);
    total -= need(column);
  }
  return columns.filter((column) => !hidden.has(column));
}
