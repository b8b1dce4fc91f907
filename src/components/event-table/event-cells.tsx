import { createContext, useContext } from 'react';
import type { TokenEvent } from '../../lib/token-event';
import { Address, type AddressFilter } from '../address';
import { Badge } from '../badge';
import { TimeCell, timeHeading, type TimeView } from '../time-cell';
import { TokenIdLink } from '../token-id';

/**
 * What cells need from the page: display choices and the address filter and tracing
 * (every address links to its wallet; `addressFilter` adds a filter button beside it).
 * It reaches cells through context, not through the column definitions: columns stay
 * the same objects, so hovering an address or the clock ticking re-renders the cells
 * that read it instead of re-creating (and remounting) every cell of the table.
 */
export interface EventView extends TimeView {
  activeAddress: string | null;
  addressFilter?: AddressFilter;
  tracedAddress?: string | null;
  onTrace?: (address: string | null) => void;
  /** Opens an event's token history inside the app (the token links). */
  onOpenToken?: (event: TokenEvent) => void;
  /** Rows newer than this (unix seconds) came in since the reader last looked: marked new. */
  freshSince?: number | null;
}

export const EventViewContext = createContext<EventView>({
  display: 'relative',
  zone: 'utc',
  nowMs: 0,
  activeAddress: null,
});

/**
 * The cells that read the view are the columns' cell renderers themselves (they get the
 * table's cell context), not wrappers around them: a fast scroll renders every cell of
 * the window each frame, and each wrapper is one more component per cell.
 */
type EventCellProps = { row: { original: TokenEvent } };

export function TokenCell({ row }: EventCellProps) {
  const { onOpenToken } = useContext(EventViewContext);
  const event = row.original;
  return (
    <TokenIdLink
      contract={event.contractAddress}
      tokenId={event.tokenId}
      onOpen={onOpenToken && (() => onOpenToken(event))}
    />
  );
}

function addressCell(field: 'from' | 'to') {
  return function AddressCell({ row }: EventCellProps) {
    const view = useContext(EventViewContext);
    const value = row.original[field];
    return (
      <Address
        value={value}
        wallet
        filter={view.addressFilter}
        active={value === view.activeAddress}
        onTrace={view.onTrace}
        traced={value === view.tracedAddress}
      />
    );
  };
}
export const FromCell = addressCell('from');
export const ToCell = addressCell('to');

export function EventTimeCell({ row }: EventCellProps) {
  const { display, nowMs, zone, freshSince } = useContext(EventViewContext);
  const seconds = row.original.timestamp;
  const time = <TimeCell seconds={seconds} display={display} nowMs={nowMs} zone={zone} />;
  if (freshSince === null || freshSince === undefined || seconds <= freshSince) return time;
  return (
    <>
      <Badge>New</Badge> {time}
    </>
  );
}

/** The time column's name, with the zone of exact times. */
export function TimeHeader() {
  const { display, zone } = useContext(EventViewContext);
  return timeHeading(display, zone);
}
