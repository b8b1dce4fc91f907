import { useMemo } from 'react';
import type { EventSort } from '../../lib/event-list';
import { sortEvents } from '../../lib/event-list';
import type { TokenEvent } from '../../lib/token-event';
import type { SortState } from '../../lib/view-state';
import { DataTable } from '../data-table';
import type { ListColumn } from '../table-features';
import { EventViewContext, type EventView } from './event-cells';
import { eventColumnWidths, eventTableClass, salesOnlyColumns } from './event-columns';

interface EventTableProps {
  caption: string;
  rows: readonly TokenEvent[];
  /** contractEventColumns or tokenEventColumns. */
  columns: ListColumn<TokenEvent>[];
  /** What the cells show and do: times, filters, tracing (see EventView). */
  view: EventView;
  sort: SortState<EventSort> | null;
  /** The rows' order when `sort` is null (see DataTable). */
  defaultSort?: SortState<EventSort>;
  onSortChange: (sort: SortState<EventSort> | null) => void;
  onNearEnd?: () => void;
  onRowOpen?: (event: TokenEvent) => void;
  /** The rows come in the order of `sort` (the server's): the table keeps their order. */
  serverSorted?: boolean;
}

const asGiven = <T,>(rows: readonly T[]) => rows;

const eventKey = (event: TokenEvent) => event.key;

/**
 * A table of events, as a contract's page and a token's page show them: sorted as the
 * export sorts, the time column as wide as the times shown, the price column wide enough
 * for a flagged sale's badge when a row has one (the Event column giving way before it
 * when every row is a sale), the phone's card layout of events, and the view the cells
 * read.
 */
export function EventTable({ view, serverSorted, columns, ...props }: EventTableProps) {
  const flagged = useMemo(() => props.rows.some((row) => row.washFlags), [props.rows]);
  const since = view.freshSince;
  const fresh = useMemo(
    () => since !== null && since !== undefined && props.rows.some((row) => row.timestamp > since),
    [since, props.rows],
  );
  const sales = useMemo(
    () => props.rows.length > 0 && props.rows.every((row) => row.kind === 'sale'),
    [props.rows],
  );
  const shown = useMemo(() => (sales ? salesOnlyColumns(columns) : columns), [sales, columns]);
  return (
    <EventViewContext.Provider value={view}>
      <DataTable
        {...props}
        columns={shown}
        widths={eventColumnWidths(view.display, flagged, fresh)}
        className={eventTableClass}
        getRowKey={eventKey}
        sortRows={serverSorted ? asGiven : sortEvents}
      />
    </EventViewContext.Provider>
  );
}
