import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Holder } from '../../../src/lib/answers';
import { everyHolder, holders } from '../../../src/server/index/holders';
import { holdersFrom, type RawRecord } from '../../support/raw-records';
import { emptyIndex, useIndexDatabase } from './index-harness';
import {
  CONTRACT,
  deliver,
  delivery,
  history,
  recordsOf,
  WALLETS,
  ZERO,
  type Change,
} from './history';

/**
 * A holder's "since" is when it got the earliest of the tokens it holds: a wallet that
 * buys, sells and buys again keeps the day of its oldest token still held, not the day of
 * its last purchase. The same rule now and as of a moment, on a page, for one owner and in
 * the snapshot file, each equal to the holders worked out from the raw records.
 */

const db = useIndexDatabase();

const triple = (h: Pick<Holder, 'owner' | 'tokens' | 'since'>) => [h.owner, h.tokens, h.since];

/** The contract's holders as the index answers them: page by page, one owner, the file. */
async function answered(id: number, asOf: number | undefined) {
  const pages: Holder[] = [];
  let after = null;
  do {
    const page = await holders(db.pool, id, { limit: 2, after, ...(asOf && { asOf }) });
    pages.push(...page.holders);
    after = page.next;
  } while (after);
  const file: Holder[] = [];
  for await (const batch of everyHolder(db.pool, id, asOf, 3)) file.push(...batch);
  const first = pages[0];
  const alone = first
    ? (
        await holders(db.pool, id, {
          limit: 1,
          after: null,
          owner: first.owner,
          ...(asOf && { asOf }),
        })
      ).holders
    : [];
  return { pages, file, alone };
}

async function contractId() {
  const { rows } = await db.pool.query<{ id: number }>(
    'SELECT id FROM idx_contracts WHERE address = $1',
    [CONTRACT],
  );
  return rows[0]!.id;
}

/** Checks every way of reading the holders, now and as of each moment given. */
async function expectSinceOfRecords(records: RawRecord[], moments: number[]) {
  const id = await contractId();
  for (const asOf of [undefined, ...moments]) {
    const want = holdersFrom(records, asOf ?? Infinity).map(triple);
    const { pages, file, alone } = await answered(id, asOf);
    expect(pages.map(triple), `as of ${asOf ?? 'now'}`).toEqual(want);
    expect(file.map(triple)).toEqual(want);
    expect(alone.map(triple)).toEqual(want.slice(0, 1));
  }
}

describe('a holder’s since', () => {
  it('is when it got its earliest token still held, after buying, selling and buying again', async () => {
    const [buyer, other] = [WALLETS[0]!, WALLETS[1]!];
    const t = 1_700_000_000;
    const changes: Change[] = [
      { kind: 'mint', token: 1, from: ZERO, to: buyer, ts: t, tx: `0x${'a1'.padStart(64, '0')}` },
      {
        kind: 'mint',
        token: 2,
        from: ZERO,
        to: other,
        ts: t + 10,
        tx: `0x${'a2'.padStart(64, '0')}`,
      },
      // It buys a second token, sells its first, then buys the first back.
      {
        kind: 'sale',
        token: 2,
        from: other,
        to: buyer,
        ts: t + 100,
        tx: `0x${'a3'.padStart(64, '0')}`,
        price: 5n,
      },
      {
        kind: 'sale',
        token: 1,
        from: buyer,
        to: other,
        ts: t + 200,
        tx: `0x${'a4'.padStart(64, '0')}`,
        price: 6n,
      },
      {
        kind: 'sale',
        token: 1,
        from: other,
        to: buyer,
        ts: t + 300,
        tx: `0x${'a5'.padStart(64, '0')}`,
        price: 7n,
      },
    ];
    await emptyIndex(db.pool);
    const records = recordsOf(changes);
    await deliver(db.pool, records, { cuts: [], repeats: [], order: [0], apart: false });
    const id = await contractId();
    const now = await holders(db.pool, id, { limit: 10, after: null });
    // Token 2 since t + 100, token 1 since t + 300: held without a break since t + 100.
    expect(now.holders.map(triple)).toEqual([[buyer, 2, t + 100]]);
    const between = await holders(db.pool, id, { limit: 10, after: null, asOf: t + 250 });
    expect(between.holders.map(triple)).toEqual([
      [other, 1, t + 200],
      [buyer, 1, t + 100],
    ]);
    await expectSinceOfRecords(records, [t + 150, t + 250]);
  });

  it('is the same, now and as of any moment, as the raw records say, for any history', async () => {
    await fc.assert(
      fc.asyncProperty(
        history.chain((changes) =>
          fc.tuple(
            fc.constant(changes),
            delivery(recordsOf(changes).length),
            fc.array(fc.nat({ max: Math.max(0, changes.length - 1) }), { maxLength: 2 }),
          ),
        ),
        async ([changes, delivered, picks]) => {
          await emptyIndex(db.pool);
          if (changes.length === 0) return;
          const records = recordsOf(changes);
          await deliver(db.pool, records, delivered);
          // As of a change's own moment (it counts), and just before it (it does not).
          const moments = picks.flatMap((pick) => [changes[pick]!.ts, changes[pick]!.ts - 1]);
          await expectSinceOfRecords(records, moments);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});
