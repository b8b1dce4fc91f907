import { useId } from 'react';
import { formatSpanEnd, type TimeSpan } from '../lib/time-span';
import field from './field.module.css';
import styles from './date-range.module.css';
import { DAY, formatUtcDay, parseUtc } from '../lib/utc';

const secondsOf = (date: string) => parseUtc(date, { dateOnly: true }) ?? Number.NaN;

/**
 * A span of whole UTC days picked with the browser's date inputs, both ends inclusive on
 * screen (the URL's `to` is the next midnight). Setting one end alone takes the other from
 * the span, or a single day; an end before the start moves the start.
 */
export function DateRange({
  span,
  onChange,
}: {
  span: TimeSpan | null;
  onChange: (from: string | null, to: string | null) => void;
}) {
  const id = useId();
  const from = span ? formatUtcDay(span.from) : '';
  const lastDay = span ? formatUtcDay(Math.ceil(span.to / DAY) * DAY - DAY) : '';
  const set = (start: string, end: string) => {
    if (!start && !end) return onChange(null, null);
    let a = secondsOf(start || end);
    let b = secondsOf(end || start);
    if (Number.isNaN(a) || Number.isNaN(b)) return;
    if (b < a) [a, b] = [b, a];
    onChange(formatSpanEnd(a), formatSpanEnd(b + DAY));
  };
  return (
    <fieldset className={`${field.field} ${styles.range}`}>
      <legend>Dates (UTC)</legend>
      <div className={field.inline}>
        <label htmlFor={`${id}-from`} className="visually-hidden">
          From
        </label>
        <input
          id={`${id}-from`}
          type="date"
          value={from}
          onChange={(event) => set(event.target.value, lastDay)}
        />
        <span aria-hidden="true">–</span>
        <label htmlFor={`${id}-to`} className="visually-hidden">
          To (inclusive)
        </label>
        <input
          id={`${id}-to`}
          type="date"
          value={lastDay}
          onChange={(event) => set(from, event.target.value)}
        />
      </div>
    </fieldset>
  );
}
