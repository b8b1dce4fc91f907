import { formatAbsolute, formatRelative, toIso, type TimeZoneChoice } from '../lib/time';
import type { TimeDisplay } from '../lib/view-state';

interface TimeCellProps {
  seconds: number;
  display: TimeDisplay;
  nowMs: number;
  zone?: TimeZoneChoice;
}

/** Relative or absolute time; the exact time is always in the tooltip. */
export function TimeCell({ seconds, display, nowMs, zone = 'utc' }: TimeCellProps) {
  const absolute = formatAbsolute(seconds, zone);
  return (
    <time dateTime={toIso(seconds)} title={absolute}>
      {display === 'relative' ? formatRelative(seconds, nowMs, zone) : absolute}
    </time>
  );
}
