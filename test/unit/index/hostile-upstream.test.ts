import { afterEach, describe, expect, it } from 'vitest';
import { getViaFetch } from '../../../src/server/upstream/service-client';
import { indexedProxy } from '../../support/indexed-proxy';
import { usePostgresDatabases } from '../../support/postgres-databases';

/**
 * An upstream that never ends a list (empty pages with a new cursor for ever, or a cursor
 * that leads back to records already read) stops the indexer's walk after a bound, is
 * recorded as an upstream fault, and the collection's answers say so.
 */
const contract = `0x${'b'.repeat(64)}`;
const record = (n: number) => ({
  contract_address: contract,
  event_type: 'transfer',
  event_id: `0x${n.toString(16).padStart(64, '0')}`,
  transaction_hash: `0x${(n + 1).toString(16).padStart(64, '0')}`,
  token_id: String(n),
  from_address: `0x${'1'.repeat(64)}`,
  to_address: `0x${'2'.repeat(64)}`,
  timestamp: 1_700_000_000 - n,
});

const databases = usePostgresDatabases();
const opened: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

async function setUp(page: (request: number) => unknown) {
  const database = await databases.database();
  opened.push(database.drop);
  let requests = 0;
  const { proxy } = await indexedProxy({
    url: database.url,
    upstream: {
      source: 'real',
      baseUrl: 'http://hostile.test',
      apiKey: 'k',
      description: 'hostile',
      get: getViaFetch(async () => Response.json(page(requests++))),
    },
    cleanups: opened,
    settings: { headIntervalMs: 60_000 },
  });
  return { proxy, requests: () => requests };
}

describe('an upstream whose lists never end', () => {
  it.each([
    [
      'empty pages with new cursors for ever',
      (n: number) => ({ result: n === 0 ? [record(0)] : [], cursor: `c${n}` }),
    ],
    [
      'a cursor that leads back to the records already read',
      (n: number) => ({ result: [record(0), record(1)], cursor: `c${n}` }),
    ],
  ])(
    'stops the walk on %s and says so',
    async (_name, page) => {
      const { proxy, requests } = await setUp(page);
      const walk = proxy.indexer!.whole(contract);
      await walk.done;
      expect(walk.progress.state).toBe('failed');
      expect(walk.progress.failure).toMatch(/without a new record/);
      expect(requests()).toBeLessThanOrEqual(60);
      const response = await proxy.app.request(`/api/collections/${contract}`);
      const body = (await response.json()) as { coverage: { fault: string; complete: boolean } };
      expect(body.coverage.complete).toBe(false);
      expect(body.coverage.fault).toMatch(/without a new record/);
    },
    60_000,
  );
});
