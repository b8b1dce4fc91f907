import type { StoreEngine } from '../../../src/server/store/engine';
import {
  createEventStore,
  storeSecret,
  type EventStoreSettings,
  type ListSpec,
  type ServeOutcome,
} from '../../../src/server/store/event-store';
import type { Failure, FakeLists } from './fake-lists';

/** An engine for one test, and how to throw it away. */
export interface EngineFactory {
  name: string;
  open(): Promise<{ engine: StoreEngine; dispose: () => Promise<void> }>;
}

export const EVENTS: ListSpec = {
  path: '/v1/events/0xabc',
  order: 'newest-first',
  identity: 'event',
};
export const TOKEN: ListSpec = { path: '/v1/events/0xabc/7', order: 'stable', identity: 'event' };

/** A store over a fake list, with a clock the test moves. */
export async function storeOver(
  engine: StoreEngine,
  fake: FakeLists,
  settings: Partial<EventStoreSettings> = {},
) {
  const clock = { now: 1_000_000 };
  const recovered: number[] = [];
  const store = createEventStore<Failure>({
    engine,
    secret: await storeSecret(engine),
    read: (spec, cursor) => fake.read(spec.path, cursor),
    settings,
    now: () => clock.now,
    events: { recovered: (_path, pages) => recovered.push(pages) },
  });
  return { store, clock, recovered };
}

export interface Served {
  ids: number[];
  ts: number[];
  next: string | null;
}

/** The records of a served page, by the fake's ids. */
export function served(fake: FakeLists, outcome: ServeOutcome<Failure>): Served {
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
