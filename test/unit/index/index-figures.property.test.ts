import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Volume } from '../../../src/lib/answers';
import { migrations } from '../../../src/server/database/migrations';
import { eventsPage } from '../../../src/server/index/events-query';
import { overview } from '../../../src/server/index/figures';
import { holders } from '../../../src/server/index/holders';
import { series } from '../../../src/server/index/series';
import { washReasons } from '../../../src/server/index/wash-flags';
import { countedCurrency } from '../../support/raw-records';
import { washBitsOf } from '../../support/wash-rules';
import { emptyIndex, useIndexDatabase } from './index-harness';
import { CONTRACT, deliver, delivery, history, recordsOf, ZERO, type Change } from './history';

/**
 * Whatever order pages arrive in (head reads, depth reads, a dead cursor walked round),
 * however records repeat across pages and however a sale's two records are split, the
 * index holds one row per change of hands, and every figure equals the figure computed
 * here, independently, from the raw records.
 */

const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

const db = useIndexDatabase();

/** Each sale's wash-trade flags, by transaction, as the rules say from the history. */
function washBits(changes: Change[]): Map<string, number> {
  const bits = washBitsOf(changes.filter((change) => change.kind === 'sale'));
  return new Map([...bits].map(([sale, wash]) => [sale.tx, wash]));
}

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
      const key = countedCurrency(change.currency);
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

/** Volumes per currency as the history's figures name them. */
const volumesBy = (volumes: Volume[]) =>
  Object.fromEntries(
    volumes.map((v) => [v.currency.address, { sales: v.sales, volume: BigInt(v.volume) }]),
  );

/** Each change's stored flags, by transaction. */
async function storedWash(): Promise<Map<string, number>> {
  const { rows } = await db.pool.query<{ tx: string; wash: number }>(
    `SELECT '0x' || encode(tx, 'hex') AS tx, wash FROM idx_changes`,
  );
  return new Map(rows.map((row) => [row.tx, row.wash]));
}

describe('the event index, whatever order its pages come in', () => {
  it('holds one row per change of hands, and its figures equal the raw records’', async () => {
    await fc.assert(
      fc.asyncProperty(
        history.chain((changes) =>
          fc.tuple(fc.constant(changes), delivery(recordsOf(changes).length)),
        ),
        async ([changes, delivered]) => {
          const { pool } = db;
          await emptyIndex(pool);
          await deliver(db.pool, recordsOf(changes), delivered);

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
          expect(volumesBy(figures.volume)).toEqual(Object.fromEntries(want.volume));

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

          // Each sale's wash-trade flags as stored and said, as the rules say from the history.
          const bits = washBits(changes);
          expect(await storedWash()).toEqual(
            new Map(changes.map((change) => [change.tx, bits.get(change.tx) ?? 0])),
          );
          for (const [tx, wash] of bits) expect(flags.get(tx)).toEqual(washReasons(wash));

          // Without the flagged sales, every figure is that of the history without them.
          const kept = changes.filter((change) => !bits.get(change.tx));
          const flagged = expected(changes.filter((change) => bits.get(change.tx)));
          const washless = expected(kept);
          const without = await overview(pool, id, { excludeWash: true });
          expect(without.counts).toEqual(washless.counts);
          expect(without.events).toBe(kept.length);
          expect(volumesBy(without.volume)).toEqual(Object.fromEntries(washless.volume));
          for (const figures of [without, await overview(pool, id)]) {
            expect(figures.washSales).toBe(flagged.counts.sale);
            expect(volumesBy(figures.washVolume)).toEqual(Object.fromEntries(flagged.volume));
          }
          // From the hourly rollup, and from the rows (a span off whole hours).
          for (const span of [{}, { from: 1 }]) {
            const buckets = await series(pool, id, 'day', { ...span, excludeWash: true });
            expect(new Map(buckets.map((b) => [b.start, total(b.counts)]))).toEqual(washless.days);
          }
          const left: string[] = [];
          after = null;
          do {
            const page = await eventsPage(
              pool,
              { contractId: id, sort: { id: 'time', desc: true }, limit: 5, excludeWash: true },
              after,
            );
            left.push(...page.rows.map((row) => row.transactionHash));
            after = page.next;
          } while (after);
          expect(left.sort()).toEqual(kept.map((change) => change.tx).sort());
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);

  it('fills the flags of rows stored before they were kept (migration 4)', async () => {
    const { pool } = db;
    const samples = fc.sample(
      history.chain((changes) =>
        fc.tuple(fc.constant(changes), delivery(recordsOf(changes).length)),
      ),
      { seed: 4, numRuns: 4 },
    );
    for (const [changes, delivered] of samples) {
      await emptyIndex(pool);
      await deliver(db.pool, recordsOf(changes), delivered);
      if (changes.length === 0) continue;
      const before = await overview(pool, 1, { excludeWash: true });
      // The tables as they were before step 4, their rows kept; then step 4 again.
      await pool.query(`ALTER TABLE idx_changes DROP COLUMN wash;
        ALTER TABLE idx_hourly DROP COLUMN wash_events, DROP COLUMN wash_volume;
        DROP INDEX idx_changes_token_sales`);
      const step = migrations.find((migration) => migration.version === 4)!;
      await pool.query(step.sql);
      const bits = washBits(changes);
      expect(await storedWash()).toEqual(
        new Map(changes.map((change) => [change.tx, bits.get(change.tx) ?? 0])),
      );
      expect(await overview(pool, 1, { excludeWash: true })).toEqual(before);
    }
  }, 60_000);
});
