import type { MouseEventHandler } from 'react';
import type { RowData } from '@tanstack/react-table';
import type { ServerList } from '../api/use-server-list';
import { DataTable, type DataTableProps } from './data-table';
import { ListFooter } from './list-footer';

type ServerListTableProps<T extends RowData, S extends string> = Omit<
  DataTableProps<T, S>,
  'rows' | 'sortRows' | 'onNearEnd' | 'sort' | 'onSortChange'
> &
  Partial<Pick<DataTableProps<T, S>, 'sort' | 'onSortChange'>> & {
    list: ServerList<T>;
    /** The view is being replaced (a new sort or filter): no next page of the old one. */
    updating: boolean;
    /** What the rows are, for the footer ("collections", "holders"). */
    noun: string;
    /** A click anywhere on the table (e.g. a mouse's shortcut to the link a row holds). */
    onClick?: MouseEventHandler<HTMLDivElement>;
  };

const asSent = <T,>(rows: readonly T[]) => rows;
const noSort = () => {};

/**
 * A table of a list the server orders and pages (by one order, or by the sort shown): rows as they came, the next page asked as
 * the reader nears the end, and the list's footer (more, retry, end).
 */
export function ServerListTable<T extends RowData, S extends string>({
  list,
  updating,
  noun,
  onClick,
  sort = null,
  onSortChange = noSort,
  ...table
}: ServerListTableProps<T, S>) {
  return (
    <>
      <div onClick={onClick} aria-busy={updating || undefined}>
        <DataTable
          {...table}
          sort={sort}
          onSortChange={onSortChange}
          rows={list.items}
          sortRows={asSent}
          onNearEnd={updating ? undefined : list.loadMoreAuto}
        />
      </div>
      {!updating && <ListFooter noun={noun} list={list} />}
    </>
  );
}
