import {
  formatAbsolute,
  formatExact,
  formatRelative,
  toIso,
  type TimeZoneChoice,
} from '../lib/time';
import type { TimeDisplay } from '../lib/view-state';

interface TimeCellProps {
  seconds: number;
  display: TimeDisplay;
  nowMs: number;
  zone?: TimeZoneChoice;
}

/**
 * Relative or exact time; the exact time with its zone is always in the tooltip. Exact
 * times leave the zone to the column's header (TimeHeader), which keeps them short.
 */
export function TimeCell({ seconds, display, nowMs, zone = 'utc' }: TimeCellProps) {
  return (
    <time dateTime={toIso(seconds)} title={formatAbsolute(seconds, zone)}>
      {display === 'relative' ? formatRelative(seconds, nowMs) : formatExact(seconds, zone)}
    </time>
  );
}

/** "Time", or "Time (UTC)" / "Time (local)" over exact times. */
export function timeHeading(display: TimeDisplay, zone: TimeZoneChoice): string {
  if (display === 'relative') return 'Time';
  return zone === 'utc' ? 'Time (UTC)' : 'Time (local)';
}
