import { useId, useState } from 'react';
import { compareProblem, parseDay, todayStart, type CompareDays } from '../../lib/holders-view';
import { FieldProblem } from '../../components/field-problem';
import button from '../../components/button.module.css';
import field from '../../components/field.module.css';
import styles from './holders-page.module.css';
import { formatUtcDay } from '../../lib/utc';

/**
 * The two days compared, each at its end (UTC), with the browser's date inputs; the
 * second left empty (or "Now") is now. Days that cannot be compared (one after today,
 * the first after the second, one that is no day) are not taken: the fields say why and
 * the view stays as it is.
 */
export function CompareDaysField({
  days,
  nowMs,
  onChange,
}: {
  days: CompareDays;
  nowMs: number;
  onChange: (days: CompareDays) => void;
}) {
  const id = useId();
  // What is typed, while it is not a pair the view takes; null shows the view's own.
  const [draft, setDraft] = useState<{ from: string; to: string } | null>(null);
  const shown = draft ?? {
    from: formatUtcDay(days.from),
    to: days.to === null ? '' : formatUtcDay(days.to),
  };
  const read = (text: { from: string; to: string }) => {
    const from = parseDay(text.from);
    const to = text.to === '' ? null : parseDay(text.to);
    if (from === null || (text.to !== '' && to === null))
      return { problem: 'Enter each day as year-month-day, like 2025-06-29.' };
    const problem = compareProblem({ from, to }, nowMs);
    return problem ? { problem } : { days: { from, to } };
  };
  const take = (text: { from: string; to: string }) => {
    const result = read(text);
    if (result.days) {
      setDraft(null);
      onChange(result.days);
    } else setDraft(text);
  };
  const problem = draft ? (read(draft).problem ?? null) : null;
  const max = formatUtcDay(todayStart(nowMs));
  const described = problem ? `${id}-problem` : undefined;
  return (
    <fieldset className={`${field.field} ${field.anchored} ${styles.days}`}>
      <legend>Days compared, each at its end (UTC)</legend>
      <div className={`${field.inline} ${styles.daysInline}`}>
        <label htmlFor={`${id}-from`}>From</label>
        <input
          id={`${id}-from`}
          type="date"
          value={shown.from}
          max={max}
          aria-invalid={problem ? true : undefined}
          aria-describedby={described}
          onChange={(event) => take({ ...shown, from: event.target.value })}
        />
        <label htmlFor={`${id}-to`}>to</label>
        <input
          id={`${id}-to`}
          type="date"
          value={shown.to}
          max={max}
          aria-invalid={problem ? true : undefined}
          aria-describedby={described}
          onChange={(event) => take({ ...shown, to: event.target.value })}
        />
        <button
          type="button"
          className={button.secondary}
          disabled={days.to === null && draft === null}
          onClick={() => take({ ...shown, to: '' })}
        >
          Now
        </button>
      </div>
      <FieldProblem id={`${id}-problem`} problem={problem} />
    </fieldset>
  );
}
