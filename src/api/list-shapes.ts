import type { TokenEvent } from '../lib/token-event';
import { joinTwins, twinKey } from '../lib/twins';
import type { ListShape } from './flatten';

/** A contract's events: newest first, a sale's twins side by side (same time). */
export const contractEventRows: ListShape<TokenEvent> = {
  keyOf: (event) => event.key,
  pairOf: twinKey,
  join: joinTwins,
  timeOf: (event) => event.timestamp,
};
