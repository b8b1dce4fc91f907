import { fail, ok, type Parsed } from '../../lib/result';
import { createCursorCodec, type CursorPosition, type ListKind } from './cursor';
import type { Contract, Dataset, Token } from './dataset';
import { hash32 } from './random';
import { contractRecord, envelope, eventRecord, type JsonRecord, type Profile } from './records';

/** The interface's cap on one page: the whole serialised envelope, in bytes. */
export const PAGE_BYTE_CAP = 1_048_576;
export const DEFAULT_LIMIT = 100;

const LIST_NUMBERS: Record<ListKind, number> = {
  contracts: 1,
  'contract-events': 2,
  'token-events': 3,
};

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

/** A list in its served order, with the keyset lookup its cursors need. */
interface OrderedList {
  kind: ListKind;
  /** Tells lists of one kind apart (contract or token number). */
  id: number;
  size: number;
  /** Row keys run from 0 to keys - 1, whatever list they belong to. */
  keys: number;
  rowAt(position: number): number;
  /** Position of the first row that sorts after `row`; `row` need not be in this list. */
  positionAfter(row: number): number;
  record(row: number): JsonRecord;
}

export function createStore(dataset: Dataset, profile: Profile): Store {
  const codec = createCursorCodec(
    `sample-service/${dataset.seed}`,
    profile === 'deployed' ? 'uuid' : 'base64url',
  );
  const longestCursor = codec.encode({
    list: 'token-events',
    after: 0xffff_ffff,
    emptyServed: true,
  });
  const envelopeBytes = Buffer.byteLength(envelope(profile, [], longestCursor));

  const contracts: OrderedList = {
    kind: 'contracts',
    id: 0,
    size: dataset.contracts.length,
    keys: dataset.contracts.length,
    rowAt: (position) => position,
    // A contract's number is its place in indexing order, so it is its own sort key.
    positionAfter: (row) => Math.min(row + 1, dataset.contracts.length),
    record: (row) => contractRecord(dataset.contracts[row] as Contract, profile),
  };
  const eventRecordOf = (row: number): JsonRecord => eventRecord(dataset.event(row), profile);

  /** Newest first; equal times newest-numbered first, which is the order they happened in reverse. */
  const contractEvents = (contract: Contract | undefined): OrderedList => {
    const first = contract?.firstEvent ?? 0;
    const size = contract?.eventCount ?? 0;
    const compare = (a: number, b: number): number =>
      dataset.timestamp(a) - dataset.timestamp(b) || a - b;
    return {
      kind: 'contract-events',
      id: contract?.index ?? -1,
      size,
      keys: dataset.eventCount,
      rowAt: (position) => first + size - 1 - position,
      // Rows are stored oldest first: the ones not older than `row` are the ones served already.
      positionAfter: (row) => size - firstWhere(size, (n) => compare(first + n, row) >= 0),
      record: eventRecordOf,
    };
  };

  /** By event id, as the deployment does: a token's history is short and not in time order. */
  const tokenEvents = (token: Token | undefined): OrderedList => {
    const byEventId = Array.from(token ? dataset.tokenEvents(token) : [], (row) => ({
      row,
      eventId: dataset.eventId(row),
    })).sort((a, b) => compareKeys(a.eventId, a.row, b.eventId, b.row));
    return {
      kind: 'token-events',
      id: token?.index ?? -1,
      size: byEventId.length,
      keys: dataset.eventCount,
      rowAt: (position) => byEventId[position]?.row ?? -1,
      positionAfter: (row) => {
        const eventId = dataset.eventId(row);
        return firstWhere(byEventId.length, (n) => {
          const entry = byEventId[n];
          return entry !== undefined && compareKeys(entry.eventId, entry.row, eventId, row) > 0;
        });
      },
      record: eventRecordOf,
    };
  };

  const page = (list: OrderedList, request: PageRequest): Parsed<string> => {
    let position: CursorPosition | null = null;
    if (request.cursor !== undefined) {
      position = codec.decode(request.cursor);
      // Refused: not a cursor, one of another kind of list, or one of a bigger dataset with
      // the same seed (and so the same secret).
      const foreign = position !== null && position.after !== null && position.after >= list.keys;
      if (position?.list !== list.kind || foreign) {
        return fail('The cursor is not one this list issued.');
      }
    }
    const after = position?.after ?? null;
    const start = after === null ? 0 : list.positionAfter(after);
    const quirk =
      profile === 'deployed' && start < list.size
        ? deployedQuirk(dataset.seed, list, position)
        : 'none';
    if (quirk === 'empty') {
      return ok(envelope(profile, [], codec.encode({ list: list.kind, after, emptyServed: true })));
    }
    const limit = quirk === 'short' ? Math.ceil(request.limit / 2) : request.limit;

    const items: string[] = [];
    let bytes = envelopeBytes;
    let last = after;
    for (let at = start; at < list.size && items.length < limit; at += 1) {
      const row = list.rowAt(at);
      const item = JSON.stringify(list.record(row));
      const itemBytes = Buffer.byteLength(item) + (items.length > 0 ? 1 : 0);
      // Records are a few hundred bytes, so a page always has room for its first one.
      if (bytes + itemBytes > PAGE_BYTE_CAP && items.length > 0) break;
      items.push(item);
      bytes += itemBytes;
      last = row;
    }
    const more = start + items.length < list.size;
    const cursor = more ? codec.encode({ list: list.kind, after: last, emptyServed: false }) : null;
    return ok(envelope(profile, items, cursor));
  };

  return {
    contracts: (request) => page(contracts, request),
    contractEvents: (address, request) =>
      page(contractEvents(dataset.contractByAddress(address)), request),
    tokenEvents: (address, tokenId, request) => {
      const contract = dataset.contractByAddress(address);
      return page(tokenEvents(contract && dataset.findToken(contract, tokenId)), request);
    },
  };
}

/**
 * The deployment filters rows after applying the page limit, so its pages can be short or
 * empty and still carry a cursor. The deployed profile reproduces both without dropping
 * any row: at about one position in ten a page is empty (once: its cursor marks that it was
 * served, and repeats the position), at another one in ten it holds half the limit.
 */
function deployedQuirk(
  seed: number,
  list: OrderedList,
  position: CursorPosition | null,
): 'empty' | 'short' | 'none' {
  const draw = hash32(seed, 0x9e, LIST_NUMBERS[list.kind], list.id, position?.after ?? -1) % 10;
  if (draw === 0 && !position?.emptyServed) return 'empty';
  return draw === 1 ? 'short' : 'none';
}

/** Smallest n in [0, size) for which `test` holds, `test` being false then true; else size. */
function firstWhere(size: number, test: (n: number) => boolean): number {
  let low = 0;
  let high = size;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (test(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}

function compareKeys(eventIdA: string, rowA: number, eventIdB: string, rowB: number): number {
  return eventIdA < eventIdB ? -1 : eventIdA > eventIdB ? 1 : rowA - rowB;
}
