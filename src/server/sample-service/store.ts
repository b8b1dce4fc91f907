import { tokenIdToHex } from '../../lib/token-id';
import { fail, ok, type Parsed } from '../../lib/result';
import type { CursorPosition, CursorScheme, ListKind } from './cursor';
import type { Contract, EventSource, Token, TokenEvent } from './event-source';
import { hash32 } from './random';
import {
  SALE_PART,
  contractRecord,
  envelope,
  eventRecord,
  listedInContract,
  recordParts,
  type JsonRecord,
  type Profile,
  type RecordPart,
} from './records';

/** The interface's cap on one page: the whole serialised envelope, in bytes. */
export const PAGE_BYTE_CAP = 1_048_576;
export const DEFAULT_LIMIT = 100;

const LIST_NUMBERS: Record<ListKind, number> = {
  contracts: 1,
  'contract-events': 2,
  'token-events': 3,
};

/** The longest cursor either scheme issues (a UUID), for the byte cap's reckoning. */
const LONGEST_CURSOR = '0'.repeat(36);

export interface PageRequest {
  cursor?: string | undefined;
  /** A positive integer (or Infinity); the byte cap applies whatever it is. */
  limit: number;
}

/** Each query gives the response body, or why the cursor was refused. */
export interface Store {
  contracts(request: PageRequest): Parsed<string>;
  contractEvents(canonicalAddress: string, request: PageRequest): Parsed<string>;
  tokenEvents(canonicalAddress: string, tokenId: bigint, request: PageRequest): Parsed<string>;
}

/**
 * A list in its served order. Rows have keys (a contract's index; an event's number and
 * record part, see `rowKey`) that positions name.
 */
interface OrderedList {
  kind: ListKind;
  /** Tells lists of one kind apart (contract or token index). */
  id: number;
  /**
   * The row keys from `first` on (from the head when null), or null when `first` is no row
   * of this list.
   */
  rowsFrom(first: number | null): Iterator<number> | null;
  /** The record served for a row, or null for one read but left out (a deployed burn). */
  record(row: number): JsonRecord | null;
}

/** An event row's key: the event's number and which of its records (0, or 1 for a sale record). */
const rowKey = (seq: number, part: RecordPart): number => seq * 2 + part;
const seqOf = (row: number): number => Math.floor(row / 2);
const partOf = (row: number): RecordPart => (row % 2 === 0 ? 0 : SALE_PART);

export function createStore(dataset: EventSource, profile: Profile, cursors: CursorScheme): Store {
  const envelopeBytes = Buffer.byteLength(envelope(profile, [], LONGEST_CURSOR));
  // The event last built: a deployed sale's two records, and the look at its parts before
  // them, build it once. Pages are built synchronously, so no other request comes between.
  let last: TokenEvent | undefined;
  const eventOf = (seq: number): TokenEvent =>
    last?.seq === seq ? last : (last = dataset.event(seq));
  const parts = (seq: number): readonly RecordPart[] => recordParts(eventOf(seq).sale, profile);
  const eventRow = (row: number): JsonRecord =>
    eventRecord(eventOf(seqOf(row)), profile, partOf(row));

  const contracts: OrderedList = {
    kind: 'contracts',
    id: 0,
    // A contract's number is its place in indexing order, so it is its own key.
    rowsFrom: (first) => {
      const count = dataset.contracts.length;
      return first !== null && first >= count ? null : counting(first ?? 0, count);
    },
    record: (row) => contractRecord(dataset.contracts[row] as Contract, profile),
  };

  /**
   * Newest first. Within a contract, event numbers run in time order (equal times in the
   * order they happened), generated events first, then those added since: the list walks
   * them backwards, each event's records in the order `parts` gives.
   */
  const contractEvents = (contract: Contract): OrderedList => {
    const { firstEvent: first, eventCount: size } = contract;
    const added = dataset.addedEvents(contract);
    const newest = (): number => added.at(-1) ?? (size > 0 ? first + size - 1 : -1);
    const older = (seq: number): number => {
      if (seq < first + size) return seq > first ? seq - 1 : -1;
      const index = firstAtLeast(added, seq);
      return index > 0 ? (added[index - 1] ?? -1) : size > 0 ? first + size - 1 : -1;
    };
    const isOwn = (seq: number): boolean =>
      seq < first + size ? seq >= first : added[firstAtLeast(added, seq)] === seq;
    /** The rows `pending`, then every row of event `start` and of the events older than it. */
    function* rows(pending: readonly number[], start: number): Iterator<number> {
      yield* pending;
      for (let seq = start; seq !== -1; seq = older(seq)) {
        for (const part of parts(seq)) yield rowKey(seq, part);
      }
    }
    return {
      kind: 'contract-events',
      id: contract.index,
      rowsFrom: (first) => {
        if (first === null) return rows([], newest());
        const seq = seqOf(first);
        if (!isOwn(seq)) return null;
        // This event's records from that one (a sale's twin may follow), then the older events.
        const own = parts(seq);
        const index = own.indexOf(partOf(first));
        if (index === -1) return null;
        return rows(
          own.slice(index).map((part) => rowKey(seq, part)),
          older(seq),
        );
      },
      record: (row) => (listedInContract(dataset.kind(seqOf(row)), profile) ? eventRow(row) : null),
    };
  };

  /**
   * By event id, as the deployment does: a token's history is short and not in time order.
   * A deployed sale record's event id is the token's id, so those sort together.
   */
  const tokenEvents = (token: Token): OrderedList => {
    const tokenIdHex = tokenIdToHex(token.id);
    const rows = Array.from(dataset.tokenEvents(token)).flatMap((seq) =>
      parts(seq).map((part) => ({
        row: rowKey(seq, part),
        eventId: part === SALE_PART ? tokenIdHex : dataset.eventId(seq),
      })),
    );
    rows.sort((a, b) => (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : a.row - b.row));
    const keys = rows.map((entry) => entry.row);
    return {
      kind: 'token-events',
      id: token.index,
      rowsFrom: (first) => {
        const index = first === null ? 0 : keys.indexOf(first);
        return index === -1 ? null : itemsFrom(keys, index);
      },
      record: eventRow,
    };
  };

  const page = (list: OrderedList | null, request: PageRequest): Parsed<string> => {
    let position: CursorPosition | null = null;
    if (request.cursor !== undefined) {
      position = cursors.resolve(request.cursor);
      if (position === null) return fail('The cursor is unknown.');
    }
    // An unknown contract or token is an empty list, which issues no cursor.
    if (list === null) {
      return position
        ? fail('The cursor is not one this list issued.')
        : ok(envelope(profile, [], null));
    }
    const foreign =
      position !== null && (position.list !== list.kind || position.listId !== list.id);
    const rows = foreign ? null : list.rowsFrom(position?.next ?? null);
    if (rows === null) return fail('The cursor is not one this list issued.');
    let next = rows.next();
    if (next.done) return ok(envelope(profile, [], null));
    const issue = (row: number, emptyServed: boolean): string =>
      cursors.issue({ list: list.kind, listId: list.id, next: row, emptyServed });

    const quirk = profile === 'deployed' ? deployedQuirk(dataset.seed, list, position) : 'none';
    if (quirk === 'empty') return ok(envelope(profile, [], issue(next.value, true)));
    const limit = quirk === 'short' ? Math.ceil(request.limit / 2) : request.limit;

    // The limit counts rows read, the byte cap records served: a deployed contract list
    // reads burns and leaves them out, so its pages can come out short, even empty.
    const items: string[] = [];
    let bytes = envelopeBytes;
    for (let read = 0; !next.done && read < limit; read += 1) {
      const record = list.record(next.value);
      if (record !== null) {
        const item = JSON.stringify(record);
        const itemBytes = Buffer.byteLength(item) + (items.length > 0 ? 1 : 0);
        // Records are a few hundred bytes, so a page always has room for its first one.
        if (bytes + itemBytes > PAGE_BYTE_CAP && items.length > 0) break;
        items.push(item);
        bytes += itemBytes;
      }
      next = rows.next();
    }
    return ok(envelope(profile, items, next.done ? null : issue(next.value, false)));
  };

  const contractList = (address: string): OrderedList | null => {
    const contract = dataset.contractByAddress(address);
    return contract ? contractEvents(contract) : null;
  };
  return {
    contracts: (request) => page(contracts, request),
    contractEvents: (address, request) => page(contractList(address), request),
    tokenEvents: (address, tokenId, request) => {
      const contract = dataset.contractByAddress(address);
      const token = contract && dataset.findToken(contract, tokenId);
      return page(token ? tokenEvents(token) : null, request);
    },
  };
}

/** from, from + 1, …, to - 1. */
function* counting(from: number, to: number): Iterator<number> {
  for (let row = from; row < to; row += 1) yield row;
}

/** The items of `list` from `start` on. */
function* itemsFrom(list: readonly number[], start: number): Iterator<number> {
  for (let index = start; index < list.length; index += 1) yield list[index] as number;
}

/**
 * The deployment filters rows after applying the page limit, so its pages can be short or
 * empty and still carry a cursor. Besides the burns it leaves out, the deployed profile
 * makes such pages without dropping any row: at about one position in ten a page is empty
 * (once: its cursor marks that it was served, and repeats the position), at another one in
 * ten it reads half the limit.
 */
function deployedQuirk(
  seed: number,
  list: OrderedList,
  position: CursorPosition | null,
): 'empty' | 'short' | 'none' {
  const draw = hash32(seed, 0x9e, LIST_NUMBERS[list.kind], list.id, position?.next ?? -1) % 10;
  if (draw === 0 && !position?.emptyServed) return 'empty';
  return draw === 1 ? 'short' : 'none';
}

/** Index of the first item of ascending `list` not below `value`; `list.length` if none. */
function firstAtLeast(list: readonly number[], value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle] ?? Infinity) >= value) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** A contract's events, or a token's. */
type ServedList = { contract: Contract } | { token: Token };

/**
 * How many records a profile serves in all for a contract's events, or for a token's: what
 * a walk of the whole list receives (deployed: each sale twice, a contract's burns never).
 */
export function servedRecordCount(dataset: EventSource, profile: Profile, of: ServedList): number {
  return servedCounts(dataset, profile, of).records;
}

/**
 * How many changes of hands a profile serves for a contract's events, or for a token's:
 * the rows a client shows once it joins each sale's two records (a contract's burns never
 * in the deployed profile).
 */
export function servedEventCount(dataset: EventSource, profile: Profile, of: ServedList): number {
  return servedCounts(dataset, profile, of).events;
}

function servedCounts(
  dataset: EventSource,
  profile: Profile,
  of: ServedList,
): { records: number; events: number } {
  const seqs =
    'token' in of
      ? Array.from(dataset.tokenEvents(of.token))
      : [
          ...Array.from({ length: of.contract.eventCount }, (_, n) => of.contract.firstEvent + n),
          ...dataset.addedEvents(of.contract),
        ];
  const counts = { records: 0, events: 0 };
  for (const seq of seqs) {
    if ('token' in of || listedInContract(dataset.kind(seq), profile)) {
      counts.records += recordParts(dataset.sale(seq), profile).length;
      counts.events += 1;
    }
  }
  return counts;
}
