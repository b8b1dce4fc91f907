import { DAY, FIRST_MONDAY, HOUR, MINUTE } from './utc';
/**
 * Where the charts put their ticks: values at round steps (1, 2 or 5 times a power of
 * ten, whole numbers for counts) from zero to at least the largest value, and times at
 * calendar steps (minutes, hours, days, Mondays, months, years, UTC) so that labels fall
 * on dates people count in, never at a bar's start or at fractions of a step.
 */

/** Zero, then round steps up to the first at or above `max`; at most `count` steps. */
export function valueTicks(max: number, { count = 4, whole = false } = {}): number[] {
  const top = Number.isFinite(max) && max > 0 ? max : 1;
  let power = 10 ** Math.floor(Math.log10(top / count));
  if (whole) power = Math.max(1, power);
  for (;;) {
    for (const factor of [1, 2, 5]) {
      const step = factor * power;
      const steps = Math.ceil(top / step - 1e-9);
      if (steps <= count) {
        return Array.from({ length: steps + 1 }, (_, index) =>
          Number((index * step).toPrecision(12)),
        );
      }
    }
    power *= 10;
  }
}

/** The unit a time step counts in; labels are formatted for it (see formatAxisTick). */
export type TickUnit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';

export interface TickStep {
  unit: TickUnit;
  /** Units per step: every 15 minutes, 6 hours, 3 months… */
  size: number;
}

/** The label's width the step needs, in pixels: how close its ticks may be. */
export const LABEL_PX: Record<TickUnit, number> = {
  minute: 52,
  hour: 52,
  day: 60,
  week: 60,
  month: 76,
  year: 48,
};

const STEPS: TickStep[] = [
  ...[1, 5, 10, 15, 30].map((size) => ({ unit: 'minute' as const, size })),
  ...[1, 2, 3, 6, 12].map((size) => ({ unit: 'hour' as const, size })),
  { unit: 'day', size: 1 },
  { unit: 'week', size: 1 },
  { unit: 'week', size: 2 },
  ...[1, 2, 3, 6].map((size) => ({ unit: 'month' as const, size })),
  ...[1, 2, 5, 10, 20, 50, 100].map((size) => ({ unit: 'year' as const, size })),
];

const FIXED: Partial<Record<TickUnit, number>> = {
  minute: MINUTE,
  hour: HOUR,
  day: DAY,
  week: 7 * DAY,
};
const ROUGH: Record<TickUnit, number> = {
  minute: MINUTE,
  hour: HOUR,
  day: DAY,
  week: 7 * DAY,
  month: 30 * DAY,
  year: 365 * DAY,
};

/** Every step boundary from `from` to `to`, both included. */
function stepTimes({ unit, size }: TickStep, from: number, to: number): number[] {
  const fixed = FIXED[unit];
  const times: number[] = [];
  if (fixed !== undefined) {
    const length = fixed * size;
    const origin = unit === 'week' ? FIRST_MONDAY : 0;
    for (
      let time = Math.ceil((from - origin) / length) * length + origin;
      time <= to;
      time += length
    )
      times.push(time);
    return times;
  }
  // Months and years by the calendar: their lengths differ.
  const perStep = unit === 'year' ? 12 * size : size;
  const start = new Date(from * 1000);
  let month = start.getUTCFullYear() * 12 + start.getUTCMonth();
  month = Math.ceil(month / perStep) * perStep;
  for (; ; month += perStep) {
    const time = Date.UTC(Math.floor(month / 12), month % 12, 1) / 1000;
    if (time < from) continue;
    if (time > to) return times;
    times.push(time);
  }
}

/**
 * Ticks for a time axis `widthPx` wide over [from, to]: the finest calendar step whose
 * labels have room, and its boundaries within the range.
 */
export function timeTicks(
  range: { from: number; to: number },
  widthPx: number,
): { step: TickStep; ticks: number[] } {
  const span = Math.max(range.to - range.from, 1);
  let previous: TickStep | null = null;
  for (const step of STEPS) {
    const room = Math.max(1, Math.floor(widthPx / LABEL_PX[step.unit]));
    // Too many by a rough count: not worth listing.
    if (span / (ROUGH[step.unit] * step.size) > room + 1) {
      previous = step;
      continue;
    }
    const ticks = stepTimes(step, range.from, range.to);
    // A coarser step with no tick in the range (a week that starts a second before it)
    // says nothing: every k-th tick of the finer step says when instead, evenly.
    if (ticks.length === 0 && previous) {
      const finer = stepTimes(previous, range.from, range.to);
      const finerRoom = Math.max(1, Math.floor(widthPx / LABEL_PX[previous.unit]));
      const every = Math.ceil(finer.length / finerRoom);
      return { step: previous, ticks: finer.filter((_, index) => index % every === 0) };
    }
    if (ticks.length <= room) return { step, ticks };
    previous = step;
  }
  const step = STEPS[STEPS.length - 1]!;
  return { step, ticks: stepTimes(step, range.from, range.to).slice(0, 1) };
}
