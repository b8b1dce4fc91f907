import {
  quoteParam,
  readTimeDisplay,
  Reasons,
  searchReading,
  type SearchReading,
} from './param-reading';
import { formatSpanEnd, parseTimeSpan, spanProblem, type TimeSpan } from './time-span';
import { formatTimeDisplay } from './view-state';

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

/**
 * The canonical search, and why values were left out: a span starting after now is the
 * whole history; `wash` is `exclude` or counts flagged sales.
 */
export function readMarketSearch(params: URLSearchParams, nowMs: number): SearchReading {
  const reasons = new Reasons();
  const problem = spanProblem(params.get('from'), params.get('to'), nowMs / 1000);
  reasons.add(problem);
  const span = problem ? null : parseMarketSpan(params);
  const wash = params.get('wash');
  if (wash && wash !== 'exclude' && wash !== 'include') {
    reasons.add(
      `${quoteParam('wash', wash)} is no choice of this page (exclude leaves flagged sales out): flagged sales are counted with the others.`,
    );
  }
  return searchReading(
    params,
    [
      ['from', span && formatSpanEnd(span.from)],
      ['time', formatTimeDisplay(reasons.take(readTimeDisplay(params.get('time'))))],
      ['to', span && formatSpanEnd(span.to)],
      ['wash', parseMarketWash(params) ? 'exclude' : null],
    ],
    reasons,
  );
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
