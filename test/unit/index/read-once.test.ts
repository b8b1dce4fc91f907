import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createSampleService,
  generateDataset,
  type SampleService,
} from '../../../src/server/sample-service';
import { getViaFetch, type Upstream } from '../../../src/server/upstream/service-client';
import { indexedProxy } from '../../support/indexed-proxy';
import { usePostgresDatabases } from '../../support/postgres-databases';
import type { Json } from '../../support/indexed-sample';

/**
 * The service's month is the scarce thing: a history in the record log is never read
 * again in full, whatever happens to the server or however old it is; only contracts the
 * service lists are walked; and faults of the whole server are said in every answer.
 */
const dataset = generateDataset({ seed: 11, contracts: 4, events: 6_000 });
const [first, second] = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount);
const databases = usePostgresDatabases();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Transactions of the contract's mints that hold one record only. */
async function databaseRows(url: string, address: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ tx: string }>(
      `SELECT '0x' || encode(c.tx, 'hex') AS tx FROM idx_changes c
         JOIN idx_contracts k ON k.id = c.contract_id
        WHERE k.address = $1 AND c.kind = 0 AND NOT c.has_sale
          AND (SELECT count(*) FROM idx_changes d WHERE d.tx = c.tx) = 1
        LIMIT 1`,
      [address],
    );
    return { rows };
  } finally {
    await client.end();
  }
}

/** The sample service as the upstream, each request's path kept; `answer` can stand in. */
function countingUpstream(
  answer?: (request: Request, service: SampleService) => Response | null | Promise<Response | null>,
) {
  const service = createSampleService({ apiKey: 'k', profile: 'deployed', dataset });
  const paths: string[] = [];
  const upstream: Upstream = {
    source: 'sample',
    baseUrl: 'http://sample.test',
    apiKey: 'k',
    description: 'sample',
    get: getViaFetch(async (request) => {
      paths.push(new URL(request.url).pathname + new URL(request.url).search);
      return (await answer?.(request, service)) ?? service.fetch(request);
    }),
  };
  return { upstream, paths };
}

const whole = [
  'overview',
  'events?sort=-price&currency=ETH',
  'holders',
  'series?interval=week',
  'market',
] as const;

describe('a history read once', () => {
  it('costs only head reads after a restart, after other histories, and a day later', async () => {
    const database = await databases.database();
    cleanups.push(database.drop);
    let clock = Date.now();
    const { upstream, paths } = countingUpstream();
    const open = async () => {
      const { proxy } = await indexedProxy({
        url: database.url,
        upstream,
        cleanups,
        settings: { headIntervalMs: 60_000 },
        proxy: { now: () => clock },
      });
      const get = async (path: string) => {
        const response = await proxy.app.request(path);
        expect(response.status).toBe(200);
        return (await response.json()) as Json;
      };
      return { proxy, get };
    };
    let server = await open();
    await server.proxy.indexer.whole(first!.address).done;
    const walked = paths.filter((path) => path.startsWith(`/v1/events/${first!.address}`));
    expect(walked.length).toBeGreaterThan(1);
    const answer = await server.get(`/api/collections/${first!.address}`);
    expect(answer.coverage.complete).toBe(true);
    expect(answer.figures.events).toBeGreaterThan(0);

    // Another history read whole, then the server made again on the same database, a day on.
    await server.proxy.indexer.whole(second!.address).done;
    await server.proxy.stop();
    clock += 86_400_000;
    server = await open();
    const before = paths.length;
    for (const route of whole) {
      const path = route === 'overview' ? '' : `/${route}`;
      const body = await server.get(`/api/collections/${first!.address}${path}`);
      expect(body.coverage.complete).toBe(true);
    }
    await server.proxy.indexer.whole(first!.address).done;
    await server.proxy.indexer.head(first!.address);
    const after = paths.slice(before);
    // Its head once (one page: nothing new arrived), and nothing of its depth.
    expect(after.filter((path) => path.includes(first!.address))).toEqual([
      `/v1/events/${first!.address}?limit=5000`,
    ]);
    expect(after.filter((path) => path.includes('cursor='))).toEqual([]);
    const again = await server.get(`/api/collections/${first!.address}`);
    expect(again.figures).toEqual(answer.figures);
  });
});

describe('verification', () => {
  it('a record the service no longer lists is kept, marked, and left out of every figure', async () => {
    const database = await databases.database();
    cleanups.push(database.drop);
    let hidden: string | null = null;
    const { upstream } = countingUpstream(async (request, service) => {
      if (hidden === null || !request.url.includes('/v1/events/')) return null;
      const page = (await (await service.fetch(request)).json()) as Json;
      page.result = page.result.filter((record: Json) => record.transaction_hash !== hidden);
      return Response.json(page);
    });
    const { proxy } = await indexedProxy({ url: database.url, upstream, cleanups });
    const address = second!.address;
    await proxy.indexer.whole(address).done;
    const figures = async () =>
      (await (await proxy.app.request(`/api/collections/${address}`)).json()) as Json;
    const before = await figures();
    // A mint, whose transaction holds nothing else: its change of hands goes with it.
    const { rows } = await databaseRows(database.url, address);
    hidden = rows[0]!.tx;
    const spec = {
      path: `/v1/events/${address}`,
      order: 'newest-first',
      identity: 'event',
    } as const;
    for (let step = 0; step < 1_000; step++) {
      const verified = await proxy.reader.verify(spec);
      if (verified.kind === 'state' && verified.done) {
        expect(verified.removed).toBe(1);
        break;
      }
    }
    const after = await figures();
    expect(after.figures.mints).toBe(before.figures.mints - 1);
    expect(after.figures.events).toBe(before.figures.events - 1);
    expect(after.coverage.removed).toBe(1);
    expect(after.coverage.statement).toMatch(
      /1 record the service no longer lists is kept in the log and left out of every figure/,
    );
  });
});

describe('head reads', () => {
  it('that find nothing new never stop a list as faulty, however many', async () => {
    const database = await databases.database();
    cleanups.push(database.drop);
    const { upstream, paths } = countingUpstream();
    const { proxy } = await indexedProxy({
      url: database.url,
      upstream,
      cleanups,
      settings: { headIntervalMs: 0, maxIdlePages: 5 },
    });
    await proxy.indexer.whole(second!.address).done;
    const before = paths.length;
    for (let read = 0; read < 12; read++) await proxy.indexer.head(second!.address);
    expect(paths.length - before).toBe(12);
    const state = await proxy.reader.state(`/v1/events/${second!.address}`);
    expect(state).toMatchObject({ fault: null, complete: true, gapTs: null });
  });
});

describe('only contracts the service lists', () => {
  it('an address typed at random is a 404 that costs no walk; the list is read once a minute', async () => {
    const database = await databases.database();
    cleanups.push(database.drop);
    const { upstream, paths } = countingUpstream();
    const { proxy } = await indexedProxy({ url: database.url, upstream, cleanups });
    const random = (n: number) => `0x${n.toString(16).padStart(64, '7')}`;
    for (let n = 0; n < 20; n++) {
      const response = await proxy.app.request(`/api/collections/${random(n)}/events?kind=sale`);
      expect(response.status).toBe(404);
      const body = (await response.json()) as Json;
      expect(body.error.message).toBe(
        `${random(n)} is not a collection the Token Events Service lists.`,
      );
    }
    const v1 = await proxy.app.request(`/api/v1/events/${random(99)}`);
    expect(v1.status).toBe(200);
    expect(await v1.json()).toEqual({ result: [], cursor: null });
    expect(v1.headers.get('x-list-stopped')).toBe(
      'Not a collection the Token Events Service lists.',
    );
    // The contracts list, once; no list of any random address.
    expect(paths).toEqual(['/v1/contracts?limit=5000']);
    // A listed contract is still read.
    expect((await proxy.app.request(`/api/collections/${first!.address}`)).status).toBe(200);
  });
});

describe('faults of the whole server', () => {
  it('a refused key: the ranking answers within a second, saying why nothing is fresh', async () => {
    const database = await databases.database();
    cleanups.push(database.drop);
    const refused = () => Response.json({ message: 'Forbidden' }, { status: 403 });
    const { upstream } = countingUpstream(refused);
    const { proxy } = await indexedProxy({ url: database.url, upstream, cleanups });
    const started = performance.now();
    const response = await proxy.app.request('/api/collections');
    const elapsed = performance.now() - started;
    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(elapsed).toBeLessThan(1_000);
    expect(body.faults).toEqual([
      expect.stringMatching(/refused the server’s API key.*answers come from stored data/),
    ]);
    const ready = await proxy.checkReady();
    expect(ready).toMatchObject({ ready: false, reason: expect.stringMatching(/API key/) });
    // A collection's answer says it too, without a walk of an address it cannot check.
    const collection = await proxy.app.request(`/api/collections/${first!.address}`);
    const coverage = ((await collection.json()) as Json).coverage;
    expect(coverage.faults).toHaveLength(1);
    expect(coverage.statement).toMatch(/refused the server’s API key/);
  });

  it('a full disk: said in coverage, by /readyz and in the server’s faults', async () => {
    const database = await databases.database();
    cleanups.push(database.drop);
    const { upstream } = countingUpstream();
    // A reserve larger than any disk: every write is refused as the disk being full.
    const { proxy } = await indexedProxy({
      url: database.url,
      upstream,
      cleanups,
      diskReserveBytes: Number.MAX_SAFE_INTEGER,
    });
    const walk = proxy.indexer.whole(first!.address);
    await walk.done;
    expect(walk.progress.state).toBe('failed');
    const body = (await (
      await proxy.app.request(`/api/collections/${first!.address}`)
    ).json()) as Json;
    expect(body.coverage.statement).toMatch(/database has no room left/);
    expect(await proxy.checkReady()).toMatchObject({
      ready: false,
      reason: expect.stringMatching(/no room left/),
    });
    expect(proxy.faults.list().map((fault) => fault.kind)).toEqual(['disk']);
  });
});
