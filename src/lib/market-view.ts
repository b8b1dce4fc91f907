import { formatSpanEnd, parseTimeSpan, spanProblem, type TimeSpan } from './time-span';
import { canonicalSearch, formatTimeDisplay, parseTimeDisplay } from './view-state';

/**
 * A collection's market as its URL states it: the whole history, or a span (`from`,
 * `to`: a UTC date or minute, `to` exclusive, as the events' span), whether sales flagged
 * as wash trades are left out (`wash=exclude`), and the time display.
 * A span that is not one (an end missing or malformed, not after the start, or a start
 * after now) is the whole history; the canonical search leaves defaults out.
 */
export const parseMarketSpan = (params: URLSearchParams): TimeSpan | null =>
  parseTimeSpan(params.get('from'), params.get('to'));

export const parseMarketWash = (params: URLSearchParams): boolean =>
  params.get('wash') === 'exclude';

/** Why the URL's span is not taken (see `spanProblem`), or null. */
export const marketSpanProblem = (params: URLSearchParams, nowMs: number) =>
  spanProblem(params.get('from'), params.get('to'), nowMs / 1000);

/** The canonical search; a span starting after now is the whole history. */
export function canonicalMarketSearch(params: URLSearchParams, nowMs: number): string {
  const span = marketSpanProblem(params, nowMs) ? null : parseMarketSpan(params);
  return canonicalSearch([
    ['from', span && formatSpanEnd(span.from)],
    ['time', formatTimeDisplay(parseTimeDisplay(params.get('time')))],
    ['to', span && formatSpanEnd(span.to)],
    ['wash', parseMarketWash(params) ? 'exclude' : null],
  ]);
}

/** The query API's parameters of a span (the market's and the mints' series). */
export function marketApiSearch(span: TimeSpan | null, extra: Record<string, string> = {}) {
  const params = new URLSearchParams(extra);
  if (span) {
    params.set('from', formatSpanEnd(span.from));
    params.set('to', formatSpanEnd(span.to));
  }
  return params.toString();
}
