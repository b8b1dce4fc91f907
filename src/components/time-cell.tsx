import {
  formatAbsolute,
  formatExact,
  formatRelative,
  toIso,
  type TimeZoneChoice,
} from '../lib/time';
import type { TimeDisplay } from '../lib/view-state';

/** How a page shows times (relative or exact, in which zone) and its clock. */
export interface TimeView {
  display: TimeDisplay;
  zone: TimeZoneChoice;
  nowMs: number;
}

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

/** "Time", or "Time (UTC)" / "Time (local)" over exact times (or another column's name). */
export function timeHeading(display: TimeDisplay, zone: TimeZoneChoice, name = 'Time'): string {
  if (display === 'relative') return name;
  return zone === 'utc' ? `${name} (UTC)` : `${name} (local)`;
}
