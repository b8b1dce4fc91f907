import type { EventRow } from './answers';
import type { EventView } from './event-view';
import type { TimeSpan } from './time-span';
import { DAY, MINUTE } from './utc';

/**
 * Where a live row goes in a view: `place` (put in at once, marked new), `count` (the
 * view cannot show it as it stands: "Show N new events"), or `none` (it can never belong).
 */
export type LiveFit = 'place' | 'count' | 'none';

/**
 * Where a collection's new change of hands goes in its events view. A row its filters
 * refuse is none of the view's; a view narrowed by marketplace or currency (a price
 * range) is the server's to tell, so it is offered nothing. A row after the view's span
 * (a past span) would belong to the same view made to end now, and a row of another
 * sort has its place somewhere down the list: both are counted. Only a newest-first view
 * whose span holds the row takes it at the top.
 */
export function liveFit(view: EventView, row: EventRow): LiveFit {
  const matches =
    (view.kinds.length === 0 || view.kinds.includes(row.kind)) &&
    (view.wash === 'exclude'
      ? !row.washFlags?.length
      : view.wash === 'only'
        ? Boolean(row.washFlags?.length)
        : true) &&
    (view.address === null || row.from === view.address || row.to === view.address) &&
    (view.token === null || row.tokenId === view.token) &&
    view.marketplace === null &&
    view.currency === null;
  if (!matches || (view.span !== null && row.timestamp < view.span.from)) return 'none';
  if (view.span !== null && row.timestamp >= view.span.to) return 'count';
  return view.sort === null ? 'place' : 'count';
}

/**
 * The span made to hold `seconds` too: its start kept, its end moved past it to the
 * next UTC midnight when the span is whole days, else to the next minute (a URL names
 * spans to the minute). A span that holds it already is kept.
 */
export function spanThrough(span: TimeSpan, seconds: number): TimeSpan {
  if (seconds < span.to) return span;
  const step = span.from % DAY === 0 && span.to % DAY === 0 ? DAY : MINUTE;
  return { from: span.from, to: (Math.floor(seconds / step) + 1) * step };
}
