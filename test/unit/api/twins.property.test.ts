import type { InfiniteData } from '@tanstack/react-query';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFlattener, type ListShape } from '../../../src/api/flatten';
import { contractEventRows } from '../../../src/api/list-shapes';
import { firstPage, type PageParam } from '../../../src/api/page-param';
import type { Page } from '../../../src/lib/page';
import type { TokenEvent } from '../../../src/lib/token-event';

/**
 * Merging a sale's twins (its transfer and its sale record, same transaction and token)
 * into one row never loses or doubles a change of hands, whatever the walk, however its
 * records are split into pages, in whichever order the twins come.
 */

const CONTRACT = `0x${'c'.repeat(64)}`;
const ZERO = `0x${'0'.repeat(64)}`;
const address = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

interface Change {
  tx: string;
  kind: 'mint' | 'transfer' | 'sale';
  from: string;
  to: string;
  timestamp: number;
  /** The sale record names the parties the other way round (an accepted offer). */
  reversed: boolean;
  saleFirst: boolean;
}

const record = (change: Change, part: 'transfer' | 'sale'): TokenEvent => {
  const [from, to] =
    part === 'sale' && change.reversed ? [change.to, change.from] : [change.from, change.to];
  return {
    key: `${change.tx}:${part}`,
    eventId: part,
    kind: change.kind === 'mint' ? 'mint' : part,
    label: part,
    contractAddress: CONTRACT,
    from,
    to,
    tokenId: '7',
    timestamp: change.timestamp,
    transactionHash: change.tx,
    ...(part === 'sale' && { price: `${change.timestamp}000`, quantity: '1' }),
  };
};

/** The records the service serves for the changes, in a contract's order (newest first). */
function contractRecords(changes: readonly Change[]): TokenEvent[] {
  return changes.flatMap((change) => {
    if (change.kind !== 'sale') return [record(change, 'transfer')];
    const twins = [record(change, 'transfer'), record(change, 'sale')];
    return change.saleFirst ? twins.reverse() : twins;
  });
}

/** A walk: changes of hands, newest first, times that repeat (many share a block). */
const walks = fc
  .array(
    fc.record({
      kind: fc.constantFrom('mint' as const, 'transfer' as const, 'sale' as const, 'sale' as const),
      holder: fc.nat(5),
      step: fc.constantFrom(0, 0, 1, 2),
      reversed: fc.boolean(),
      saleFirst: fc.boolean(),
    }),
    { maxLength: 40 },
  )
  .map((drafts) => {
    let time = 10_000;
    return drafts.map((draft, index): Change => ({
      tx: address(index + 1),
      kind: draft.kind,
      from: draft.kind === 'mint' ? ZERO : address(100 + draft.holder),
      to: address(200 + index),
      timestamp: (time -= draft.step),
      reversed: draft.reversed,
      saleFirst: draft.saleFirst,
    }));
  });

/** Page lengths to cut the records with (the last page takes the rest). */
const cuts = fc.array(fc.nat(6), { minLength: 1, maxLength: 12 });

function paged(records: readonly TokenEvent[], lengths: readonly number[]): Page<TokenEvent>[] {
  const pages: Page<TokenEvent>[] = [];
  let at = 0;
  for (const length of lengths) {
    if (at >= records.length) break;
    pages.push({ items: records.slice(at, at + length), skipped: 0, cursor: `c${pages.length}` });
    at += length;
  }
  pages.push({ items: records.slice(at), skipped: 0, cursor: null });
  return pages;
}

/** Pages as a walk to the end asks for them ("Load full history"), or as browsing does. */
const data = (
  pages: Page<TokenEvent>[],
  walked: boolean,
): InfiniteData<Page<TokenEvent>, unknown> => ({
  pages,
  pageParams: pages.map((_page, index): PageParam =>
    index === 0
      ? firstPage(100)
      : { cursor: pages[index - 1]!.cursor, limit: 100, readAhead: walked },
  ),
});

/** The rows a list must end with: one per change, sales as the transfer's parties with the sale's price. */
function expectOneRowPerChange(rows: readonly TokenEvent[], changes: readonly Change[]) {
  expect(rows).toHaveLength(changes.length);
  const byTx = new Map(rows.map((row) => [row.transactionHash, row]));
  expect(byTx.size).toBe(changes.length);
  for (const change of changes) {
    const row = byTx.get(change.tx)!;
    expect(row.kind).toBe(change.kind);
    expect([row.from, row.to]).toEqual([change.from, change.to]);
    if (change.kind === 'sale') {
      expect(row.price).toBe(`${change.timestamp}000`);
      expect(row.records?.map((part) => part.label).sort()).toEqual(['sale', 'transfer']);
    }
  }
}

/** At no moment is a change counted twice, nor a record taken twice. */
function expectNoDouble(rows: readonly TokenEvent[]) {
  const txs = rows.map((row) => row.transactionHash);
  expect(new Set(txs).size).toBe(txs.length);
}

function growingWalk(shape: ListShape<TokenEvent>, pages: Page<TokenEvent>[], walked: boolean) {
  const flatten = createFlattener(shape);
  const answers = pages.map((_page, index) => flatten(data(pages.slice(0, index + 1), walked)));
  return { answers, last: answers[answers.length - 1]! };
}

describe('one row per change of hands', () => {
  it('joins twins in a contract’s list, side by side, across any page split', () => {
    fc.assert(
      fc.property(walks, cuts, (changes, lengths) => {
        const pages = paged(contractRecords(changes), lengths);
        const walk = growingWalk(contractEventRows, pages, true);
        walk.answers.forEach((answer, index) => {
          expectNoDouble(answer.items);
          // Walked, rows shown never change: the list only grows, what folds over it only
          // adds (rows the first page showed, as browsing asked for it, may still change).
          const next = walk.answers[index + 1];
          const browsed = walk.answers[0]!.items.length;
          if (next)
            answer.items
              .slice(browsed)
              .forEach((row, at) => expect(next.items[browsed + at]).toBe(row));
        });
        expectOneRowPerChange(walk.last.items, changes);
        // Browsed, every record is shown as it comes; a row may then change into its sale.
        const browse = growingWalk(contractEventRows, pages, false);
        for (const answer of browse.answers) expectNoDouble(answer.items);
        expectOneRowPerChange(browse.last.items, changes);
      }),
    );
  });

  it('read again from the head after any page, skips what it had and loses nothing', () => {
    fc.assert(
      fc.property(
        walks,
        walks,
        cuts,
        cuts,
        fc.nat(20),
        (changes, later, lengths, again, stopAt) => {
          const records = contractRecords(changes);
          const first = paged(records, lengths);
          // The walk stops after some page (its cursor died) and reads on from the head:
          // new pages of the whole list, cut anew, with changes that arrived meanwhile at
          // its head (newer: the "new events" notice offers them, not the end of the list).
          const kept = first.slice(0, Math.min(stopAt % first.length, first.length - 1) + 1);
          const arrivals = later.map((change) => ({
            ...change,
            tx: `${change.tx}-new`,
            timestamp: change.timestamp + 20_000,
          }));
          const rewalked = paged([...contractRecords(arrivals), ...records], again);
          const pages = [...kept, ...rewalked];
          const flatten = createFlattener(contractEventRows);
          let previous: TokenEvent[] = [];
          let browsed = 0;
          for (let index = 0; index < pages.length; index++) {
            const answer = flatten({
              pages: pages.slice(0, index + 1),
              pageParams: pages.slice(0, index + 1).map((_page, at) =>
                at === 0
                  ? firstPage(100)
                  : {
                      // From the head again after the kept pages, as a walk asks for it.
                      cursor: at === kept.length ? null : pages[at - 1]!.cursor,
                      limit: 100,
                      readAhead: true,
                    },
              ),
            });
            expectNoDouble(answer.items);
            if (index === 0) browsed = answer.items.length;
            previous
              .slice(browsed)
              .forEach((row, at) => expect(answer.items[browsed + at]).toBe(row));
            previous = answer.items;
          }
          // Read from the head with nothing loaded before, new changes are the list's too.
          const hadRows = kept.some((page) => page.items.length > 0);
          expectOneRowPerChange(previous, hadRows ? changes : [...arrivals, ...changes]);
        },
      ),
    );
  });
});
