import { describe, expect, it } from 'vitest';
import { openPostgresEngine } from '../../../src/server/store/postgres-engine';
import { usePostgresDatabases } from '../../support/postgres-databases';
import { storeBehaviour } from './store-behaviour';
import { storeProperties } from './store-properties';
import { createFakeLists } from './fake-lists';
import { EVENTS, served, storeOver, type EngineFactory } from './store-harness';

/** The event store's behaviour and properties on its engine, on a PostgreSQL of its own. */
const databases = usePostgresDatabases();

/** A database per test, so tests share the server but nothing else. */
const postgresEngines: EngineFactory = {
  name: 'PostgreSQL',
  async open() {
    const { url, drop } = await databases.database();
    const engine = await openPostgresEngine({ connectionString: url });
    return {
      engine,
      url,
      dispose: async () => {
        await engine.close();
        await drop();
      },
    };
  },
};

storeBehaviour(postgresEngines);
storeProperties(postgresEngines, Number(process.env.RUNS ?? 15));

describe('several servers on one PostgreSQL store', () => {
  it('read each page of a list from the upstream once, however many walk it at once', async () => {
    const { url, dispose } = (await postgresEngines.open()) as Awaited<
      ReturnType<EngineFactory['open']>
    > & { url: string };
    const fake = createFakeLists({ order: 'newest-first', limit: 25 });
    fake.add(Array.from({ length: 410 }, (_, n) => 50_000 - n));
    const instances = await Promise.all(
      [1, 2, 3].map(async () => {
        const engine = await openPostgresEngine({ connectionString: url });
        // Each read takes a moment, as the real service's do, so walks overlap.
        const slow = {
          ...fake,
          read: async (path: string, cursor: string | null) => {
            await new Promise((resolve) => setTimeout(resolve, 5));
            return fake.read(path, cursor);
          },
        };
        return { engine, ...(await storeOver(engine, slow as typeof fake)) };
      }),
    );
    try {
      const walks = instances.flatMap(({ store }) =>
        [10, 33].map(async (limit) => {
          const ids: number[] = [];
          let cursor: string | null = null;
          do {
            const page = served(fake, await store.serve(EVENTS, cursor, limit));
            ids.push(...page.ids);
            cursor = page.next;
          } while (cursor !== null);
          return ids;
        }),
      );
      const expected = fake.all().map((record) => record.id);
      for (const ids of await Promise.all(walks)) expect(ids).toEqual(expected);
      // 17 pages of 25 or fewer; six walks on three servers started together read each once.
      expect(fake.pagesServed()).toBe(17);
    } finally {
      await Promise.all(instances.map(({ engine }) => engine.close()));
      await dispose();
    }
  }, 60_000);
});
