import { canonicalAddress } from './address';
import {
  quoteParam,
  readAddress,
  readTimeDisplay,
  Reasons,
  searchReading,
  type SearchReading,
} from './param-reading';
import { formatTimeDisplay } from './view-state';
import { DAY, formatUtcDay, parseUtc } from './utc';

/**
 * A collection's holders as its URL states them: now, or as of the end of a UTC day
 * (`asOf=2025-06-29`), and the time display. The snapshot of a day is taken at the next
 * midnight, so the day's own changes of hands are in it. A malformed day, or one after
 * today, falls back to now; the canonical search leaves defaults out.
 */
/** `2025-06-29` as its UTC midnight (unix seconds), or null when it is no such day. */
export function parseDay(value: string | null): number | null {
  const day = value ? parseUtc(value.trim(), { dateOnly: true }) : null;
  return day !== null && day >= 0 ? day : null;
}

/** The start of today, UTC: the last day a snapshot can be asked for. */
export const todayStart = (nowMs: number) => Math.floor(nowMs / 1000 / DAY) * DAY;

/** The URL's day, when it is one and not after today; null is now. */
export function parseAsOfDay(value: string | null, nowMs: number): number | null {
  const day = parseDay(value);
  return day !== null && day <= todayStart(nowMs) ? day : null;
}

/** Why a day typed into the field is not taken, or null when it is. */
export function asOfProblem(value: string, nowMs: number): string | null {
  const day = parseDay(value);
  if (day === null) return 'Enter a day as year-month-day, like 2025-06-29.';
  if (day > todayStart(nowMs))
    return `Pick a day up to today (${formatUtcDay(todayStart(nowMs))}, UTC).`;
  return null;
}

/** Why the URL's `asOf` is not taken, in words, or null when it is or is absent. */
export function asOfParamProblem(value: string | null, nowMs: number): string | null {
  if (value === null) return null;
  const day = parseDay(value);
  const quoted = `“${value.slice(0, 40)}”`;
  if (day === null)
    return `“asOf” ${quoted} is not a day (like 2025-06-29): the holders now are shown.`;
  if (day > todayStart(nowMs)) {
    return `“asOf” ${quoted} is after today (${formatUtcDay(todayStart(nowMs))}, UTC): the holders now are shown.`;
  }
  return null;
}

/**
 * The holders page's search read: the view and what it reads (`with`, `compare`), `asOf`
 * and `time`, and why values were left out.
 */
export function readHoldersSearch(params: URLSearchParams, nowMs: number): SearchReading {
  const reasons = new Reasons();
  reasons.add(asOfParamProblem(params.get('asOf'), nowMs));
  const day = parseAsOfDay(params.get('asOf'), nowMs);
  const view = readView(params, reasons);
  const other =
    view === 'overlap'
      ? reasons.take(readAddress('with', params.get('with'), 'pick the other collection'))
      : null;
  const compare =
    view === 'compare' ? reasons.take(readCompare(params.get('compare'), nowMs)) : null;
  return searchReading(
    params,
    [
      ['asOf', day === null ? null : formatUtcDay(day)],
      ['compare', compare === null ? null : formatCompare(compare)],
      ['time', formatTimeDisplay(reasons.take(readTimeDisplay(params.get('time'))))],
      ['view', view === 'holders' ? null : view],
      ['with', other],
    ],
    reasons,
  );
}

/**
 * The query API's parameters for a day (null: now): `asOf` is the moment the snapshot is
 * taken, the next midnight. The answer, its pages and its file share them.
 */
export function holdersApiSearch(day: number | null): string {
  return day === null ? '' : `asOf=${formatUtcDay(day + DAY)}`;
}

/**
 * The holders page's views besides the holders themselves (`view`): the collections its
 * holders also hold; who holds it and another collection (`with`); the holders at two
 * days compared (`compare=2025-06-01..2025-06-29`, the second left out: now).
 */
export const HOLDERS_VIEWS = ['also-hold', 'overlap', 'compare'] as const;
export type HoldersView = 'holders' | (typeof HOLDERS_VIEWS)[number];

/** Two days compared (UTC midnights); `to` null: now. */
export interface CompareDays {
  from: number;
  to: number | null;
}

/** The days the compare view shows when the link names none: 30 days before today, to now. */
export const COMPARE_DEFAULT_DAYS = 30;

/** `2025-06-01..2025-06-29`, or `2025-06-01..` to now. */
export const formatCompare = ({ from, to }: CompareDays) =>
  `${formatUtcDay(from)}..${to === null ? '' : formatUtcDay(to)}`;

/** Why two days cannot be compared, or null when they can. */
export function compareProblem(days: CompareDays, nowMs: number): string | null {
  const today = todayStart(nowMs);
  if (days.from > today || (days.to !== null && days.to > today))
    return `Pick days up to today (${formatUtcDay(today)}, UTC).`;
  if (days.to !== null && days.from > days.to)
    return 'The first day is after the second: pick the earlier day first.';
  return null;
}

/** The link's `compare`, when it is two days that can be compared; else why not. */
export function readCompare(
  value: string | null,
  nowMs: number,
): { value: CompareDays | null; reason: string | null } {
  if (value === null) return { value: null, reason: null };
  const quoted = quoteParam('compare', value);
  const parts = value.split('..');
  const from = parseDay(parts[0] ?? null);
  const to = parts[1] === '' ? null : parseDay(parts[1] ?? null);
  if (parts.length !== 2 || from === null || (parts[1] !== '' && to === null)) {
    return {
      value: null,
      reason: `${quoted} is not two days like 2025-06-01..2025-06-29 (leave out the second for now): the last ${COMPARE_DEFAULT_DAYS} days are compared.`,
    };
  }
  const problem = compareProblem({ from, to }, nowMs);
  if (problem) {
    return {
      value: null,
      reason: `${quoted}: ${problem.replace(/^Pick/, 'pick')} The last ${COMPARE_DEFAULT_DAYS} days are compared.`,
    };
  }
  return { value: { from, to }, reason: null };
}

/**
 * The view the link asks for: `view`, or the view its `with` or `compare` belongs to
 * when it names none; a value another view reads is left out, saying why.
 */
function readView(params: URLSearchParams, reasons: Reasons): HoldersView {
  const asked = params.get('view');
  if (asked !== null && !(HOLDERS_VIEWS as readonly string[]).includes(asked)) {
    reasons.add(
      `${quoteParam('view', asked)} is no view of this page (${HOLDERS_VIEWS.join(', ')}): the holders are shown.`,
    );
  }
  const view: HoldersView = (HOLDERS_VIEWS as readonly string[]).includes(asked ?? '')
    ? (asked as HoldersView)
    : asked === null && params.has('compare')
      ? 'compare'
      : asked === null && params.has('with')
        ? 'overlap'
        : 'holders';
  for (const [key, owner] of [
    ['with', 'overlap'],
    ['compare', 'compare'],
  ] as const) {
    if (params.has(key) && view !== owner)
      reasons.add(`“${key}” is read by the ${owner} view alone: it was left out.`);
  }
  return view;
}

/** The holders page's view as its URL says it (one reading for the route and the page). */
export interface HoldersViewState {
  view: HoldersView;
  /** The day the holders are shown at the end of; null: now. */
  asOf: number | null;
  /** The overlap view's other collection. */
  with: string | null;
  /** The compare view's days; null: the default (the last 30 days). */
  compare: CompareDays | null;
}

export function readHoldersView(params: URLSearchParams, nowMs: number): HoldersViewState {
  const view = readView(params, new Reasons());
  const other = view === 'overlap' ? canonicalAddress(params.get('with') ?? '') : null;
  return {
    view,
    asOf: parseAsOfDay(params.get('asOf'), nowMs),
    with: other ?? null,
    compare: view === 'compare' ? readCompare(params.get('compare'), nowMs).value : null,
  };
}

/** The query API's moments for two days compared: the ends of both (none named: its default). */
export function compareApiSearch(days: CompareDays | null): string {
  if (days === null) return '';
  const to = days.to === null ? '' : `&to=${formatUtcDay(days.to + DAY)}`;
  return `from=${formatUtcDay(days.from + DAY)}${to}`;
}

/** The two days a comparison shows: the link's, or the last 30 days to now. */
export const comparedDays = (days: CompareDays | null, nowMs: number): CompareDays =>
  days ?? { from: todayStart(nowMs) - COMPARE_DEFAULT_DAYS * DAY, to: null };
