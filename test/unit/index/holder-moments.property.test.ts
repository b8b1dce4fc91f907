import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holderCountsAt, type HolderCounts } from '../../../src/server/index/holder-moments';
import { holders, holdersFigures, replayHolders } from '../../../src/server/index/holders';
import type { KeysetValues } from '../../../src/server/index/keyset';
import { emptyIndex, useIndexDatabase } from './index-harness';
import { CONTRACT, delivery, history, ingestPages, pagesOf, recordsOf } from './history';

/**
 * Holders counted from kept moments equal holders replayed from every change of hands,
 * whatever order the pages come in: moments are kept between pages (every one asked, or
 * one in so many changes), and a page bringing older changes must drop those it makes
 * untrue, or a later question reads them.
 */

const db = useIndexDatabase();

const sorted = (counts: HolderCounts) => ({
  owners: counts.owners
    .map((row) => [`0x${row.owner.toString('hex')}`, row.tokens] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
  burned: counts.burned,
});

async function replayed(id: number, at: number) {
  const { owners, burned } = await replayHolders(db.pool, id, at);
  return {
    owners: owners
      .map((holder) => [holder.owner, holder.tokens] as const)
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
    burned,
  };
}

async function contractId(): Promise<number | undefined> {
  const { rows } = await db.pool.query<{ id: number }>(
    'SELECT id FROM idx_contracts WHERE address = $1',
    [CONTRACT],
  );
  return rows[0]?.id;
}

const keptMoments = async () =>
  Number(
    (await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM idx_holder_moments')).rows[0]!.n,
  );

describe('holders at a moment, from kept moments', () => {
  it('equal a replay of every change up to it, moments kept between pages in any order', async () => {
    let kept = 0;
    await fc.assert(
      fc.asyncProperty(
        history.chain((changes) =>
          fc.tuple(
            fc.constant(changes),
            delivery(recordsOf(changes).length),
            // Moments asked after each page: a change's own time, a second before it.
            fc.array(fc.tuple(fc.nat(), fc.boolean()), { minLength: 1, maxLength: 4 }),
            fc.constantFrom(0, 1, 3),
            fc.constantFrom(2, 64),
          ),
        ),
        async ([changes, delivered, picks, keepAfter, keep]) => {
          await emptyIndex(db.pool);
          if (changes.length === 0) return;
          const moments = picks.map(([pick, before]) => {
            const change = changes[pick % changes.length]!;
            return change.ts - (before ? 1 : 0);
          });
          const settings = { keepAfter, keep };
          for (const page of pagesOf(recordsOf(changes), delivered)) {
            await ingestPages(db.pool, [page]);
            const id = await contractId();
            if (id === undefined) continue;
            for (const at of moments) {
              const counted = await holderCountsAt(db.pool, id, at, db.pool, settings);
              expect(sorted(counted), `at ${at}`).toEqual(await replayed(id, at));
            }
          }
          const id = (await contractId())!;
          kept += await keptMoments();
          // Read back without keeping anything: each from the moments the pages left.
          for (const at of [...moments, ...changes.map((change) => change.ts)]) {
            expect(sorted(await holderCountsAt(db.pool, id, at)), `at ${at}`).toEqual(
              await replayed(id, at),
            );
          }
          // The answer's pages (two holders each) and figures, worked out in the database.
          for (const at of moments) {
            const replay = await replayHolders(db.pool, id, at);
            const paged: [string, number][] = [];
            let after: KeysetValues | null = null;
            let figures;
            do {
              const page = await holders(db.pool, id, { limit: 2, after, asOf: at });
              paged.push(...page.holders.map((h) => [h.owner, h.tokens] as [string, number]));
              const { holders: _shown, next, ...rest } = page;
              figures = rest;
              after = next;
            } while (after);
            expect(paged).toEqual(replay.owners.map((h) => [h.owner, h.tokens]));
            expect(figures).toEqual(holdersFigures(replay.owners, replay.burned));
          }
        },
      ),
      { numRuns: 40 },
    );
    // The property means nothing if no moment was ever kept and read.
    expect(kept).toBeGreaterThan(0);
  }, 180_000);

  it('keeps at most the number of moments set, the latest made', async () => {
    await emptyIndex(db.pool);
    const changes = fc.sample(history, { seed: 7, numRuns: 30 }).find((c) => c.length > 20)!;
    await ingestPages(db.pool, [recordsOf(changes)]);
    const id = (await contractId())!;
    const times = [...new Set(changes.map((change) => change.ts))].sort((a, b) => a - b);
    for (const at of times)
      await holderCountsAt(db.pool, id, at, db.pool, { keepAfter: 1, keep: 3 });
    expect(await keptMoments()).toBe(3);
    const { rows } = await db.pool.query<{ at: string }>(
      'SELECT at FROM idx_holder_moments ORDER BY at',
    );
    expect(rows.map((row) => Number(row.at))).toEqual(times.slice(-3));
  });
});
