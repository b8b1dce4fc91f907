import type { TokenEvent } from '../lib/token-event';
import { joinTwins, twinKey } from '../lib/twins';
import type { ListShape } from './flatten';

/** A token's events: in no order upstream, a sale's twins on any page. */
export const tokenEventRows: ListShape<TokenEvent> = {
  keyOf: (event) => event.key,
  pairOf: twinKey,
  join: joinTwins,
};

/** A contract's events: newest first, a sale's twins side by side (same time). */
export const contractEventRows: ListShape<TokenEvent> = {
  ...tokenEventRows,
  timeOf: (event) => event.timestamp,
};
