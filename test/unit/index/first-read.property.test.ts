import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/server/database/migrations';
import { createFirstRead } from '../../../src/server/index/first-read';
import { deliverLists, scenario } from './history';
import { emptyIndex, useIndexDatabase } from './index-harness';
import { indexSnapshot } from './index-snapshot';

/**
 * A contract's first read stored in the record log alone and its index built from the log
 * (first-read.ts) gives what ingest gives page by page: random histories, their contract's
 * list and some of their tokens' lists cut into pages, delivered in any order, some
 * records twice, the contract's list read to its end at any of its pages and the pages
 * after that ingested as head reads; every table compared. And so when the process stops
 * right after every build's page committed, the build left to the next page or a start.
 */
const database = useIndexDatabase();

describe("a contract's first read built from the record log", () => {
  it('gives the tables ingest gives page by page, stopped after each commit or not', async () => {
    const { pool } = database;
    await migrate(pool);
    await fc.assert(
      fc.asyncProperty(scenario, fc.boolean(), async (delivered, crash) => {
        const whole = { ...delivered, complete: true };
        await emptyIndex(pool);
        await deliverLists(pool, whole);
        const ingested = await indexSnapshot(pool);

        await emptyIndex(pool);
        await deliverLists(pool, whole, { bulk: true, crash });
        // A start builds what a stop left undone.
        await createFirstRead(pool, pool).finish();
        expect(await indexSnapshot(pool)).toEqual(ingested);
      }),
      { numRuns: 40 },
    );
  }, 240_000);
});
