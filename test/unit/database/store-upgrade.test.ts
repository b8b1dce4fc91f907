import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, migrations } from '../../../src/server/database/migrations';
import {
  keyHash,
  readListPage,
  readRecordKey,
  type RecordIdentity,
} from '../../../src/server/log/list-page';
import { createListReader, type ListSpec } from '../../../src/server/log/list-reader';
import { openRecordLog } from '../../../src/server/log/record-log';
import { usePostgresDatabases } from '../../support/postgres-databases';

/**
 * Migration 6 on a database of schema 5, made by a server with the event store: each
 * list's current copy (its chunks, in the old format) moves into the record log in its
 * stored order, each record with its identity and time, the list's frontier and whether
 * it is complete with it; the store's tables are dropped, and nothing is asked of the
 * service again for what was stored.
 */
const databases = usePostgresDatabases();
const cleanUp: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanUp.splice(0).reverse()) await step();
});

interface OldRecord {
  text: string;
  ts: number;
}

/** A chunk as the store wrote it: u32 count | u32 ends[count] | f64 ts[count] | records joined by commas. */
function oldChunk(records: readonly OldRecord[]): Buffer {
  const head = Buffer.alloc(4 + records.length * 12);
  head.writeUInt32LE(records.length, 0);
  let end = -1;
  records.forEach((record, index) => {
    end += 1 + Buffer.byteLength(record.text);
    head.writeUInt32LE(end, 4 + index * 4);
    head.writeDoubleLE(record.ts, 4 + records.length * 4 + index * 8);
  });
  return Buffer.concat([head, Buffer.from(records.map((record) => record.text).join(','))]);
}

const hex = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const CONTRACT = hex(0xabc);
const OTHER = hex(0xdef);
const HEAD_CHECKED_AT = 1_700_000_000_000;

/** An event as the service sends it: later records carry every value as a string. */
function event(n: number, ts: number, asText = n % 2 === 0): OldRecord {
  const record =
    n % 5 === 0
      ? {
          event_type: 'sale',
          event_id: hex(n),
          token_id_hex: hex(n),
          nft_contract_address: CONTRACT,
          token_id: String(n),
          from_address: hex(1),
          to_address: hex(2),
          transaction_hash: hex(1000 + n),
          price: '1000000000000000000',
          timestamp: asText ? String(ts) : ts,
        }
      : {
          event_type: 'transfer',
          event_id: hex(5000 + n),
          contract_address: CONTRACT,
          token_id: String(n),
          from_address: hex(1),
          to_address: hex(2),
          transaction_hash: hex(1000 + n),
          timestamp: asText ? String(ts) : ts,
        };
  return { text: JSON.stringify(record), ts };
}

const contract = (n: number): OldRecord => ({
  text: JSON.stringify({ contract_address: hex(n), name: `Collection ${n}`, image: '' }),
  ts: 0,
});

interface OldList {
  path: string;
  identity: RecordIdentity;
  complete: boolean;
  frontier: string | null;
  /** The current generation's chunks by their first record's number (head chunks below 0). */
  chunks: [number, OldRecord[]][];
}

const events = (from: number, count: number, ts: number) =>
  Array.from({ length: count }, (_, index) => event(from + index, ts - index));

const LISTS: OldList[] = [
  {
    // Read from its head later: that chunk's records are numbered below the first ones.
    // A record stored twice (a head read that met it again) moves once.
    path: `/v1/events/${CONTRACT}`,
    identity: 'event',
    complete: true,
    frontier: null,
    chunks: [
      [-4, events(1, 4, 1_706_900_000)],
      [0, [...events(5, 5, 1_706_800_000), event(4, 1_706_899_997)]],
      [6, events(10, 6, 1_706_700_000)],
    ],
  },
  {
    path: `/v1/events/${OTHER}`,
    identity: 'event',
    complete: false,
    frontier: 'c0ffee00-0000-4000-8000-000000000001',
    chunks: [[0, events(100, 3, 1_706_000_000)]],
  },
  {
    path: `/v1/events/${CONTRACT}/7`,
    identity: 'event',
    complete: true,
    frontier: null,
    chunks: [[0, [event(7, 1_706_500_000), event(70, 1_706_600_000), event(77, 1_706_400_000)]]],
  },
  {
    path: '/v1/contracts',
    identity: 'contract',
    complete: true,
    frontier: null,
    chunks: [[0, [contract(3), contract(1), contract(2)]]],
  },
];

/** Each distinct record of a list once, in its stored order. */
function expectedOf(list: OldList): OldRecord[] {
  const seen = new Set<string>();
  return list.chunks
    .flatMap(([, records]) => records)
    .filter((record) => {
      const key = readRecordKey(record.text, list.identity);
      return !seen.has(key) && seen.add(key);
    });
}

async function schema5Database(lists = LISTS) {
  const { url, drop } = await databases.database({ empty: true });
  const pool = new pg.Pool({ connectionString: url });
  cleanUp.push(drop, () => pool.end());
  await migrate(pool, migrations.slice(0, 5));
  for (const list of lists) {
    // An older generation, dropped by the store but not yet cleaned: not moved.
    await pool.query(
      'INSERT INTO store_chunks (list, generation, first, data, count, bytes) VALUES ($1, 1, 0, $2, 1, 9)',
      [list.path, oldChunk([event(999, 1_600_000_000)])],
    );
    for (const [first, records] of list.chunks) {
      const data = oldChunk(records);
      await pool.query(
        `INSERT INTO store_chunks (list, generation, first, data, count, bytes, checksum)
         VALUES ($1, 2, $2, $3, $4, $5, 0)`,
        [list.path, first, data, records.length, data.byteLength],
      );
    }
    const count = list.chunks.reduce((sum, [, records]) => sum + records.length, 0);
    await pool.query(
      `INSERT INTO store_lists
         (list, generation, first, next, complete, frontier, head_checked_at, fetched_at, bytes, used_at)
       VALUES ($1, 2, $2, $3, $4, $5, $6, $6, 1000, $6)`,
      [list.path, list.chunks[0]![0], count, list.complete, list.frontier, HEAD_CHECKED_AT],
    );
  }
  await pool.query("INSERT INTO store_settings VALUES ('cursor-secret', 'kept')");
  return { url, pool };
}

describe('migration 6 on a database with the event store', () => {
  it('moves every list’s current copy into the log, in order, and drops the store', async () => {
    const { url, pool } = await schema5Database();
    expect(await migrate(pool)).toEqual({ from: 5, to: migrations.length });

    for (const list of LISTS) {
      const { rows: lists } = await pool.query<{
        id: number;
        stable: boolean;
        complete: boolean;
        frontier: string | null;
        head_checked_at: string;
        records: string;
      }>('SELECT * FROM log_lists WHERE path = $1', [list.path]);
      const expected = expectedOf(list);
      expect(lists[0], list.path).toMatchObject({
        stable: !/^\/v1\/events\/0x[0-9a-f]{64}$/.test(list.path),
        complete: list.complete,
        frontier: list.frontier,
        head_checked_at: String(HEAD_CHECKED_AT),
        records: String(expected.length),
      });
      const { rows } = await pool.query<{ key: Buffer; ts: string; body: Buffer }>(
        'SELECT key, ts, body FROM log_records WHERE list_id = $1 ORDER BY seq',
        [lists[0]!.id],
      );
      expect(
        rows.map((row) => row.body.toString()),
        list.path,
      ).toEqual(expected.map((record) => record.text));
      expect(rows.map((row) => Number(row.ts))).toEqual(expected.map((record) => record.ts));
      expect(rows.map((row) => row.key.toString('hex'))).toEqual(
        expected.map((record) =>
          keyHash(readRecordKey(record.text, list.identity)).toString('hex'),
        ),
      );
    }
    const { rows: tables } = await pool.query<{ name: string }>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'",
    );
    const names = tables.map((table) => table.name);
    expect(names.filter((name) => /^store_(chunks|lists|keys)$/.test(name))).toEqual([]);
    expect((await pool.query('SELECT value FROM store_settings')).rows).toEqual([
      { value: 'kept' },
    ]);

    // A server on it serves what was stored without asking the service for its depth.
    const log = await openRecordLog({ connectionString: url });
    cleanUp.push(() => log.close());
    const asked: (string | null)[] = [];
    const reader = createListReader<'down'>({
      log,
      secret: 'kept',
      read: (_spec, cursor) => {
        asked.push(cursor);
        return Promise.resolve({ kind: 'failed', failure: 'down', cursorRefused: false });
      },
      // Its head read within the interval: not due.
      now: () => HEAD_CHECKED_AT + 1_000,
    });
    const walk = async (spec: ListSpec) => {
      const texts: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await reader.serve(spec, cursor, 4);
        if (page.kind !== 'page') throw new Error(`${spec.path}: ${page.kind}`);
        texts.push(
          ...(JSON.parse(page.body.toString()) as { result: unknown[] }).result.map((record) =>
            JSON.stringify(record),
          ),
        );
        cursor = page.next;
      } while (cursor !== null);
      return texts;
    };
    const [events, , token, contracts] = LISTS;
    const newestFirst = expectedOf(events!)
      .map((record, seq) => ({ ...record, seq }))
      .sort((a, b) => b.ts - a.ts || a.seq - b.seq)
      .map((record) => record.text);
    expect(await walk({ path: events!.path, order: 'newest-first', identity: 'event' })).toEqual(
      newestFirst,
    );
    expect(await walk({ path: token!.path, order: 'stable', identity: 'event' })).toEqual(
      expectedOf(token!).map((record) => record.text),
    );
    expect(await walk({ path: contracts!.path, order: 'stable', identity: 'contract' })).toEqual(
      expectedOf(contracts!).map((record) => record.text),
    );
    expect(
      await reader.deeper({ path: events!.path, order: 'newest-first', identity: 'event' }),
    ).toMatchObject({ reads: 0 });
    expect(asked).toEqual([]);
    // A list that was not complete reads on from its frontier.
    await reader.deeper({ path: LISTS[1]!.path, order: 'newest-first', identity: 'event' });
    expect(asked).toEqual([LISTS[1]!.frontier]);
  });

  it('takes a time no unix time can be, which the store kept from a hostile service, as a new read would', async () => {
    // The store kept any finite number; the log keeps whole seconds, and 0 for no time.
    const hostile = [1_706_896_016.5, 1e300, -5].map((ts, n) => {
      const record = JSON.parse(event(200 + n, 1).text) as Record<string, unknown>;
      return { text: JSON.stringify({ ...record, timestamp: ts }), ts };
    });
    const list: OldList = { ...LISTS[0]!, chunks: [[0, hostile]] };
    const { pool } = await schema5Database([list]);
    await migrate(pool);
    const { rows } = await pool.query<{ ts: string }>('SELECT ts FROM log_records ORDER BY seq');
    const asRead = readListPage(
      { result: hostile.map((record) => JSON.parse(record.text) as unknown), cursor: null },
      'event',
    ).records.map((record) => record.ts);
    expect(asRead).toEqual([1_706_896_016, 0, 0]);
    expect(rows.map((row) => Number(row.ts))).toEqual(asRead);
  });
});
