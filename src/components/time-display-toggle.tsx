import type { TimeDisplay } from '../lib/view-state';
import button from './button.module.css';

/** Switches between relative and exact times; pressed while exact times are shown. */
export function TimeDisplayToggle({
  display,
  onChange,
}: {
  display: TimeDisplay;
  onChange: (display: TimeDisplay) => void;
}) {
  return (
    <button
      type="button"
      className={button.secondary}
      aria-pressed={display === 'absolute'}
      onClick={() => onChange(display === 'relative' ? 'absolute' : 'relative')}
    >
      {display === 'relative' ? 'Show exact times' : 'Show relative times'}
    </button>
  );
}
