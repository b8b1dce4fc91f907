import { describe, expect, it } from 'vitest';
import { createSampleService, generateDataset } from '../../../src/server/sample-service';
import { fakeUpstream } from './fake-upstream';
import { useProxies } from './proxy-harness';
import { sampleUpstream } from '../../support/sample-upstream';

/**
 * `/api/v1`, the service's own three lists, served from the record log: the list
 * envelope as the service sends it, with cursors of ours (signed, never dying), the
 * service asked only for what the log lacks, a list that never ends stopped and said so,
 * and an address the service does not list answered without a walk.
 */
const dataset = generateDataset({ seed: 5, contracts: 6, events: 12_000 });
const busiest = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount)[0]!;
const eventsPath = `/api/v1/events/${busiest.address}`;
// The service's own list of the contract's events, as the log reads it.
const isEventsRead = (path: string) => path.startsWith(`/v1/events/${busiest.address}?`);

const { proxyOn } = useProxies();

/**
 * The sample service's deployed profile (a random cursor for every page, forgotten on
 * request) and the paths of every request it was sent.
 */
function sample() {
  const service = createSampleService({ apiKey: 'k', profile: 'deployed', dataset });
  const paths: string[] = [];
  const upstream = sampleUpstream({
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://x');
      paths.push(url.pathname + url.search);
      return service.fetch(input, init);
    },
  });
  return { service, upstream, paths, eventsReads: () => paths.filter(isEventsRead).length };
}

type Body = { result: Record<string, string>[]; cursor: string | null };
type App = { request: (path: string) => Response | Promise<Response> };

const keyOf = (record: Record<string, string>) =>
  `${record.transaction_hash}:${record.event_type}:${record.event_id}`;

/** A page of /api/v1, checked for what every page holds. */
async function page(app: App, path: string) {
  const response = await app.request(path);
  expect(response.status).toBe(200);
  const body = (await response.json()) as Body;
  expect(response.headers.get('x-next-cursor')).toBe(body.cursor);
  return { body, response };
}

/** The list walked through /api/v1 from `cursor`, `limit` records a page. */
async function walk(app: App, limit: number, from: string | null = null, path = eventsPath) {
  const keys: string[] = [];
  const cursors: string[] = [];
  let cursor = from;
  for (;;) {
    const query = `?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const { body } = await page(app, `${path}${query}`);
    keys.push(...body.result.map(keyOf));
    if (body.cursor === null) return { keys, cursors };
    cursor = body.cursor;
    cursors.push(cursor);
  }
}

/** The same list walked on the service itself, in its largest pages. */
async function walkService(service: ReturnType<typeof createSampleService>) {
  const keys: string[] = [];
  let cursor: string | null = null;
  do {
    const path = `/v1/events/${busiest.address}?limit=5000${cursor ? `&cursor=${cursor}` : ''}`;
    const response = await service.fetch(path, { headers: { 'x-api-key': 'k' } });
    const body = (await response.json()) as Body;
    keys.push(...body.result.map(keyOf));
    cursor = body.cursor ?? null;
  } while (cursor);
  return keys;
}

describe('/api/v1 served from the record log', () => {
  it('walks a contract’s list with cursors of its own: every record once, in the service’s order', async () => {
    const { service, upstream, eventsReads } = sample();
    const { app } = await proxyOn(upstream);
    const direct = await walkService(service);
    expect(new Set(direct).size).toBe(direct.length);
    const first = await walk(app, 100);
    expect(first.keys).toEqual(direct);
    // Ours, not the service's: signed positions in the log, one per page.
    expect(first.cursors.every((cursor) => /^[A-Za-z0-9_-]{39}$/.test(cursor))).toBe(true);
    // Depth is read once, in the largest pages: a 1 MB page per request, not a 100-event one.
    const reads = eventsReads();
    expect(reads).toBeLessThanOrEqual(Math.ceil(direct.length / 1_000) + 1);
    // A second walk, at another page size, costs the service nothing.
    expect((await walk(app, 5000)).keys).toEqual(direct);
    expect((await walk(app, 333)).keys).toEqual(direct);
    expect(eventsReads()).toBe(reads);
  });

  it('walks on when the service has forgotten its cursors', async () => {
    const { service, upstream } = sample();
    const { app } = await proxyOn(upstream);
    const direct = await walkService(service);
    const { body } = await page(app, `${eventsPath}?limit=100`);
    expect(body.result).toHaveLength(100);
    service.forgetCursors();
    expect((await walk(app, 100, body.cursor)).keys).toEqual(direct.slice(100));
  });

  it('takes a cursor of its own after the server is made again on the same database', async () => {
    const { service, upstream, eventsReads } = sample();
    const direct = await walkService(service);
    const before = await proxyOn(upstream);
    const { keys, cursors } = await walk(before.app, 1000);
    expect(keys).toEqual(direct);
    await before.close();
    const reads = eventsReads();
    const after = await proxyOn(upstream);
    // From the second page's cursor: the rest of the list, all of it stored.
    expect((await walk(after.app, 1000, cursors[1]!)).keys).toEqual(direct.slice(2000));
    expect(eventsReads()).toBe(reads);
  });

  it('answers a cursor it did not give 400, asking the service nothing of the list', async () => {
    const { upstream, eventsReads } = sample();
    const { app } = await proxyOn(upstream);
    const { body } = await page(app, `${eventsPath}?limit=10`);
    const ours = body.cursor!;
    const tampered = (ours[0] === 'A' ? 'B' : 'A') + ours.slice(1);
    const contracts = (await page(app, '/api/v1/contracts?limit=1')).body.cursor!;
    const reads = eventsReads();
    for (const cursor of [
      '0f1e2d3c-aaaa-bbbb-cccc-123456789abc', // the service's own kind
      tampered,
      contracts, // ours, for another list
    ]) {
      const response = await app.request(`${eventsPath}?cursor=${cursor}`);
      expect(response.status).toBe(400);
      const error = ((await response.json()) as { error: { kind: string; message: string } }).error;
      expect(error.kind).toBe('bad_request');
      expect(error.message).toMatch(/cursor/);
    }
    expect(eventsReads()).toBe(reads);
  });

  it('answers an address the service does not list with the empty list, and no walk', async () => {
    const { upstream, paths } = sample();
    const { app } = await proxyOn(upstream);
    const unlisted = `0x${'7'.repeat(64)}`;
    for (const path of [`/api/v1/events/${unlisted}`, `/api/v1/events/${unlisted}/1`]) {
      const response = await app.request(path);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ result: [], cursor: null });
      expect(response.headers.get('x-list-stopped')).toMatch(/not a collection/i);
    }
    // The contracts list was read to know it; nothing of the address was asked.
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((path) => path.startsWith('/v1/contracts?'))).toBe(true);
  });
});

describe('a list the service never ends', () => {
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
  // The walk through /api/v1 gives up here: a list that did not stop would go on for ever.
  const MAX_PAGES = 20;

  it.each([
    [
      'a cursor that leads back to the records already read',
      (n: number) => ({ result: [record(0), record(1)], cursor: `c${n}` }),
      2,
    ],
    [
      'empty pages with new cursors for ever',
      (n: number) => ({ result: n === 0 ? [record(0)] : [], cursor: `c${n}` }),
      1,
    ],
  ])(
    'ends the walk on %s, saying why, within a bounded number of requests',
    async (_name, answer, records) => {
      let n = 0;
      const { upstream, listCalls } = fakeUpstream(() => Response.json(answer(n++)), {
        contracts: [contract],
      });
      const { app } = await proxyOn(upstream);
      const path = `/api/v1/events/${contract}`;
      const keys: string[] = [];
      let cursor: string | null = null;
      let stopped: string | null;
      let pages = 0;
      do {
        expect(pages++, 'the walk through /api/v1 ends').toBeLessThan(MAX_PAGES);
        const { body, response } = await page(app, cursor ? `${path}?cursor=${cursor}` : path);
        keys.push(...body.result.map(keyOf));
        cursor = body.cursor;
        stopped = response.headers.get('x-list-stopped');
      } while (cursor !== null);
      expect(stopped).toMatch(/without a new record/);
      expect(new Set(keys).size).toBe(records);
      expect(keys).toHaveLength(records);
      // The list was stopped after a bound (50 pages without a new record), not read on.
      const reads = listCalls().length;
      expect(reads).toBeLessThanOrEqual(60);
      // Stopped for good: walked again, it is served from the log and read no further.
      const again = await page(app, path);
      expect(again.body.cursor).toBeNull();
      expect(again.response.headers.get('x-list-stopped')).toMatch(/without a new record/);
      expect(listCalls()).toHaveLength(reads);
    },
  );
});

describe('servers sharing one database', () => {
  it('read a list once between them, walked by both at once', async () => {
    const { service, upstream, eventsReads } = sample();
    const direct = await walkService(service);
    const one = await proxyOn(upstream);
    const two = await proxyOn(upstream);
    const [first, second] = await Promise.all([walk(one.app, 500), walk(two.app, 700)]);
    expect(first.keys).toEqual(direct);
    expect(second.keys).toEqual(direct);
    // Each page of depth read by one of them, the other finding it stored.
    expect(eventsReads()).toBeLessThanOrEqual(Math.ceil(direct.length / 1_000) + 2);
  });

  it('take a listed contract for listed while another server is reading the contracts list', async () => {
    const contract = `0x${'c'.repeat(64)}`;
    let release!: () => void;
    const listed = new Promise<void>((resolve) => (release = resolve));
    const { upstream } = fakeUpstream(async (request) => {
      if (new URL(request.url).pathname.endsWith('/v1/contracts')) {
        await listed;
        return Response.json({ result: [{ contract_address: contract }], cursor: null });
      }
      return Response.json({ result: [], cursor: null });
    });
    const one = await proxyOn(upstream);
    const two = await proxyOn(upstream);
    // The second server's first look at the index comes before the first server's
    // commit of the contracts list, and its answer after it.
    let asked!: () => void;
    const askedIndex = new Promise<void>((resolve) => (asked = resolve));
    let committed!: () => void;
    const afterCommit = new Promise<void>((resolve) => (committed = resolve));
    const query = two.log.pool.query.bind(two.log.pool);
    let held = false;
    two.log.pool.query = (async (...args: Parameters<typeof query>) => {
      const result = await (query as (...a: unknown[]) => Promise<unknown>)(...args);
      if (!held && String(args[0]).startsWith('SELECT listed FROM idx_contracts')) {
        held = true;
        asked();
        await afterCommit;
      }
      return result;
    }) as typeof query;
    const reading = Promise.resolve(one.app.request(`/api/v1/events/${contract}`));
    const asking = Promise.resolve(two.app.request(`/api/v1/events/${contract}`));
    await askedIndex;
    release();
    const first = await reading;
    expect(first.headers.get('x-list-stopped')).toBeNull();
    committed();
    const second = await asking;
    expect(second.status).toBe(200);
    expect(second.headers.get('x-list-stopped')).toBeNull();
  });
});
