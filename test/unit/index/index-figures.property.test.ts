import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventsPage } from '../../../src/server/index/events-query';
import { overview } from '../../../src/server/index/figures';
import { holders } from '../../../src/server/index/holders';
import { series } from '../../../src/server/index/series';
import { WASH_WINDOW_SECONDS, washReasons } from '../../../src/server/index/wash-flags';
import { emptyIndex, useIndexDatabase } from './index-harness';
import { CONTRACT, history, ingestPages, recordsOf, ZERO, type Change } from './history';

/**
 * Whatever order pages arrive in (head reads, depth reads, a dead cursor walked round),
 * however records repeat across pages and however a sale's two records are split, the
 * index holds one row per change of hands, and every figure equals the figure computed
 * here, independently, from the raw records.
 */

/** Pages of the records in any order, some records on two pages, twins split anywhere. */
const delivery = (count: number) =>
  fc.record({
    cuts: fc.array(fc.integer({ min: 0, max: Math.max(0, count) }), { maxLength: 8 }),
    repeats: fc.array(fc.integer({ min: 0, max: Math.max(0, count - 1) }), { maxLength: 6 }),
    order: fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
  });

const db = useIndexDatabase();

/** The figures, computed from the history itself. */
function expected(changes: Change[]) {
  const counts = { mint: 0, transfer: 0, sale: 0, burn: 0, other: 0 };
  const volume = new Map<string, { sales: number; volume: bigint }>();
  const owner = new Map<number, string>();
  const days = new Map<number, number>();
  for (const change of [...changes].sort((a, b) => a.ts - b.ts)) {
    counts[change.kind] += 1;
    const day = Math.floor(change.ts / 86_400) * 86_400;
    days.set(day, (days.get(day) ?? 0) + 1);
    if (change.kind === 'sale') {
      const key = change.currency ?? 'none';
      const entry = volume.get(key) ?? { sales: 0, volume: 0n };
      entry.sales += 1;
      entry.volume += change.price!;
      volume.set(key, entry);
    }
    owner.set(change.token, change.to);
  }
  const byOwner = new Map<string, number>();
  for (const held of owner.values())
    if (held !== ZERO) byOwner.set(held, (byOwner.get(held) ?? 0) + 1);
  return {
    counts,
    volume,
    byOwner,
    days,
    tokens: owner.size,
    burned: [...owner.values()].filter((o) => o === ZERO).length,
  };
}

describe('the event index, whatever order its pages come in', () => {
  it('holds one row per change of hands, and its figures equal the raw records’', async () => {
    await fc.assert(
      fc.asyncProperty(
        history.chain((changes) =>
          fc.tuple(fc.constant(changes), delivery(recordsOf(changes).length)),
        ),
        async ([changes, { cuts, repeats, order }]) => {
          const { pool } = db;
          await emptyIndex(pool);
          const records = recordsOf(changes);
          const bounds = [...new Set([0, ...cuts, records.length])].sort((a, b) => a - b);
          const pages = bounds.slice(1).map((end, index) => records.slice(bounds[index], end));
          for (const repeat of repeats)
            pages[repeat % Math.max(1, pages.length)]?.push(records[repeat]!);
          const shuffled = pages
            .map((page, index) => ({ page, key: order[index % order.length]! * 31 + index }))
            .sort((a, b) => a.key - b.key)
            .map((entry) => entry.page);
          await ingestPages(pool, shuffled);
          // A page read twice (a head re-read, a walk round a dead cursor) changes nothing.
          if (shuffled[0]) await ingestPages(pool, [shuffled[0]]);

          const want = expected(changes);
          const { rows } = await pool.query<{ id: number }>(
            'SELECT id FROM idx_contracts WHERE address = $1',
            [CONTRACT],
          );
          if (changes.length === 0) return;
          const id = rows[0]!.id;
          const figures = await overview(pool, id);
          expect(figures.counts).toEqual(want.counts);
          expect(figures.events).toBe(changes.length);
          expect(figures.tokens).toBe(want.tokens);
          expect(figures.knownBurns).toBe(want.burned);
          expect(figures.holders).toBe(want.byOwner.size);
          const volume = Object.fromEntries(
            figures.volume.map((v) => [
              v.currency.address ?? 'none',
              { sales: v.sales, volume: BigInt(v.volume) },
            ]),
          );
          expect(volume).toEqual(Object.fromEntries(want.volume));

          // Holders now, page by page, and as of the last change (a replay of every change).
          const latest = Math.max(...changes.map((change) => change.ts));
          for (const asOf of [undefined, latest]) {
            const pages: [string, number][] = [];
            let after = null;
            do {
              const page = await holders(pool, id, { limit: 2, after, ...(asOf && { asOf }) });
              pages.push(...page.holders.map((h): [string, number] => [h.owner, h.tokens]));
              expect(page.totalHolders).toBe(want.byOwner.size);
              expect(page.knownBurned).toBe(want.burned);
              after = page.next;
            } while (after);
            expect(new Map(pages)).toEqual(want.byOwner);
            expect(pages).toHaveLength(want.byOwner.size);
          }

          const daily = await series(pool, id, 'day', {});
          const total = (counts: Record<string, number>) =>
            Object.values(counts).reduce((a, b) => a + b, 0);
          expect(new Map(daily.map((b) => [b.start, total(b.counts)]))).toEqual(want.days);

          // Every change once, walked page by page newest first.
          const seen: string[] = [];
          const flags = new Map<string, string[]>();
          let after = null;
          do {
            const page = await eventsPage(
              pool,
              { contractId: id, sort: { id: 'time', desc: true }, limit: 7 },
              after,
            );
            seen.push(...page.rows.map((row) => row.transactionHash));
            for (const row of page.rows) flags.set(row.transactionHash, row.washFlags ?? []);
            after = page.next;
          } while (after);
          expect(seen.sort()).toEqual(changes.map((c) => c.tx).sort());
          // Every change once by kind, page by page across the kinds, in their order.
          const kinds: string[] = [];
          after = null;
          do {
            const page = await eventsPage(
              pool,
              { contractId: id, sort: { id: 'kind', desc: false }, limit: 3 },
              after,
            );
            kinds.push(...page.rows.map((row) => row.kind));
            after = page.next;
          } while (after);
          const kindOrder = ['mint', 'transfer', 'sale', 'burn', 'other'];
          expect(kinds).toEqual(
            changes
              .map((change) => change.kind)
              .sort((a, b) => kindOrder.indexOf(a) - kindOrder.indexOf(b)),
          );

          // Each sale's wash-trade flags, as the rules say from the history itself.
          for (const sale of changes.filter((change) => change.kind === 'sale')) {
            const near = changes.filter(
              (other) =>
                other.kind === 'sale' &&
                other.token === sale.token &&
                Math.abs(other.ts - sale.ts) <= WASH_WINDOW_SECONDS,
            );
            const trades = (wallet: string) =>
              near.filter((other) => other.from === wallet || other.to === wallet).length;
            const want = washReasons({
              id: sale.tx,
              self_trade: sale.from === sale.to,
              round_trip: near.some((other) => other.from === sale.to && other.to === sale.from),
              buyer_trades: trades(sale.to),
              seller_trades: trades(sale.from),
            });
            expect(flags.get(sale.tx)).toEqual(want);
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});
