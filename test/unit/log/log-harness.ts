import { afterAll, beforeAll } from 'vitest';
import {
  createListReader,
  type ListReaderSettings,
  type ListSpec,
  type ServeOutcome,
} from '../../../src/server/log/list-reader';
import { openRecordLog, type RecordLog } from '../../../src/server/log/record-log';
import { usePostgresDatabases } from '../../support/postgres-databases';
import type { Failure, FakeList } from './fake-lists';

/**
 * The record log on the test PostgreSQL and list readers over fake lists. A test file
 * shares one database: each list has a path of its own (`eventsSpec`, `tokenSpec`), so
 * tests and property runs share nothing but the tables.
 */
export function useRecordLog() {
  const databases = usePostgresDatabases();
  let opened: { log: RecordLog; url: string; drop: () => Promise<void> } | undefined;
  beforeAll(async () => {
    const { url, drop } = await databases.database();
    opened = { log: await openRecordLog({ connectionString: url }), url, drop };
  }, 60_000);
  afterAll(async () => {
    await opened?.log.close();
    await opened?.drop();
  });
  const running = () => {
    if (!opened) throw new Error('the record log is not open');
    return opened;
  };
  return {
    databases,
    log: () => running().log,
    url: () => running().url,
  };
}

let lists = 0;
const address = () => `0x${(++lists).toString(16).padStart(64, '0')}`;

/** A contract's events (newest first) of a list never used before. */
export const eventsSpec = (): ListSpec => ({
  path: `/v1/events/${address()}`,
  order: 'newest-first',
  identity: 'event',
});

/** A token's events (a stable list) of a list never used before. */
export const tokenSpec = (): ListSpec => ({
  path: `/v1/events/${address()}/7`,
  order: 'stable',
  identity: 'event',
});

export const START_MS = 1_700_000_000_000;

/** A reader over a fake list, with a clock the test moves and what it reported. */
export function readerOver(
  log: RecordLog,
  fake: FakeList,
  settings: Partial<ListReaderSettings> = {},
  clock = { now: START_MS },
) {
  const recovered: number[] = [];
  const faulted: string[] = [];
  const reader = createListReader<Failure>({
    log,
    secret: 'test secret',
    read: (_spec, cursor) => fake.read(cursor),
    settings,
    now: () => clock.now,
    recovered: (_path, pages) => recovered.push(pages),
    faulted: (_path, fault) => faulted.push(fault),
  });
  return { reader, clock, recovered, faulted };
}

export type Reader = ReturnType<typeof readerOver>['reader'];

export interface Served {
  ids: number[];
  ts: number[];
  next: string | null;
}

/** The records of a served page, by the fake's ids. */
export function served(fake: FakeList, outcome: ServeOutcome<Failure>): Served {
  if (outcome.kind !== 'page') throw new Error(`expected a page, got ${JSON.stringify(outcome)}`);
  const body = JSON.parse(outcome.body.toString()) as {
    result: { timestamp: string }[];
    cursor: string | null;
  };
  return {
    ids: body.result.map((record) => fake.idOf(JSON.stringify(record))),
    ts: body.result.map((record) => Number(record.timestamp)),
    next: body.cursor,
  };
}

/** A whole walk of `reader.serve` from the head, by the fake's ids. */
export async function walk(reader: Reader, fake: FakeList, spec: ListSpec, limit: number) {
  const ids: number[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 2_000; pages++) {
    const page = served(fake, await reader.serve(spec, cursor, limit));
    ids.push(...page.ids);
    cursor = page.next;
    if (cursor === null) return ids;
  }
  throw new Error('the walk did not end');
}

/**
 * Reads a list's head (when due, and again while a gap is left) and then its depth until
 * it is complete, as the indexer does; returns the upstream reads it took.
 */
export async function readToCompletion(reader: Reader, spec: ListSpec): Promise<number> {
  let reads = 0;
  let step = await reader.head(spec);
  for (let steps = 0; steps < 5_000; steps++) {
    if (step.kind === 'failed') throw new Error(`a read failed: ${step.failure}`);
    reads += step.reads;
    const { state } = step;
    if (state.fault) throw new Error(`the list was stopped as faulty: ${state.fault}`);
    if (state.gapTs !== null) step = await reader.head(spec);
    else if (!state.complete) step = await reader.deeper(spec);
    else return reads;
  }
  throw new Error('the list was never complete');
}

/** The ids of a list's records in the log (not those marked removed), by place. */
export async function loggedIds(log: RecordLog, fake: FakeList, path: string): Promise<number[]> {
  const { rows } = await log.pool.query<{ body: Buffer }>(
    `SELECT r.body FROM log_records r JOIN log_lists l ON l.id = r.list_id
      WHERE l.path = $1 AND r.removed_at IS NULL ORDER BY r.seq`,
    [path],
  );
  return rows.map((row) => fake.idOf(row.body.toString()));
}

const byNumber = (a: number, b: number) => a - b;
export const sortedIds = (ids: readonly number[]) => [...ids].sort(byNumber);
