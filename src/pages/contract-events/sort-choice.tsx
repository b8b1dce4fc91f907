import { EVENT_SORTS, type EventSortId } from '../../lib/answers';
import { formatSort, parseSort, type SortState } from '../../lib/view-state';
import field from '../../components/field.module.css';

/** Each order the server can give the events, as the select offers it; the first is the default. */
export const SORT_CHOICES: readonly [sort: string, name: string][] = [
  ['-time', 'Newest first'],
  ['time', 'Oldest first'],
  ['-price', 'Price, highest first'],
  ['price', 'Price, lowest first'],
  ['token', 'Token id, lowest first'],
  ['-token', 'Token id, highest first'],
  ['kind', 'Kind, A to Z'],
  ['-kind', 'Kind, Z to A'],
];

/**
 * The events' order as a select in the filter bar: the same sort as the table's headers,
 * within reach where the headers are far below the filters (a phone's cards).
 */
export function SortChoice({
  sort,
  onChange,
}: {
  sort: SortState<EventSortId> | null;
  onChange: (sort: SortState<EventSortId> | null) => void;
}) {
  return (
    <label className={field.field}>
      <span>Sort</span>
      <select
        value={formatSort(sort) ?? '-time'}
        onChange={(event) => onChange(parseSort(event.target.value, EVENT_SORTS))}
      >
        {SORT_CHOICES.map(([value, name]) => (
          <option key={value} value={value}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}
