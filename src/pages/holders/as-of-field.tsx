import { useId, useState } from 'react';
import { asOfProblem, parseDay, todayStart } from '../../lib/holders-view';
import { FieldProblem } from '../../components/field-problem';
import button from '../../components/button.module.css';
import field from '../../components/field.module.css';
import { formatUtcDay } from '../../lib/utc';

/**
 * The day the holders are shown at the end of (UTC), with the browser's date input, and
 * "Now" to go back to the holders of this moment. A day that is no day, or after today,
 * is not taken: the field says why and the view stays as it is.
 */
export function AsOfField({
  day,
  nowMs,
  onChange,
}: {
  /** UTC midnight of the day shown, or null: now. */
  day: number | null;
  nowMs: number;
  onChange: (day: number | null) => void;
}) {
  const id = useId();
  const shown = day === null ? '' : formatUtcDay(day);
  // What is typed, while it is not a day the view takes; null shows the view's own day.
  const [draft, setDraft] = useState<string | null>(null);
  const value = draft ?? shown;
  const problem = draft ? asOfProblem(draft, nowMs) : null;
  const take = (text: string) => {
    if (text === '') {
      setDraft(null);
      return onChange(null);
    }
    if (asOfProblem(text, nowMs) === null) {
      setDraft(null);
      return onChange(parseDay(text));
    }
    setDraft(text);
  };
  return (
    <div className={`${field.field} ${field.anchored}`}>
      <label htmlFor={id}>As of the end of (UTC)</label>
      <div className={field.inline}>
        <input
          id={id}
          type="date"
          value={value}
          max={formatUtcDay(todayStart(nowMs))}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(event) => take(event.target.value)}
        />
        <button
          type="button"
          className={button.secondary}
          disabled={day === null && draft === null}
          onClick={() => take('')}
        >
          Now
        </button>
      </div>
      <FieldProblem id={`${id}-problem`} problem={problem} />
    </div>
  );
}
