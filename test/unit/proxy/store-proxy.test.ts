import { afterEach, describe, expect, it } from 'vitest';
import { createProxy } from '../../../src/server/proxy/app';
import { createSampleService, generateDataset } from '../../../src/server/sample-service';
import { storeSecret } from '../../../src/server/store/event-store';
import { openPostgresEngine } from '../../../src/server/store/postgres-engine';
import { usePostgresDatabases } from '../../support/postgres-databases';
import { sampleUpstream } from '../../support/sample-upstream';

/**
 * The proxy with its event store over the sample service's deployed profile (a random
 * cursor for every page, forgotten on request): what the browser sees stays the list
 * envelope, and the upstream is asked only for what the store lacks.
 */
const dataset = generateDataset({ seed: 5, contracts: 6, events: 12_000 });
const busiest = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount)[0]!;
const eventsPath = `/api/v1/events/${busiest.address}`;

const databases = usePostgresDatabases();
const opened: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const each of opened.splice(0).reverse()) await each.close();
});

/** The proxy on a new database, or on `url`'s (what an earlier one stored). */
async function setUp(url?: string) {
  if (!url) {
    const database = await databases.database();
    opened.push({ close: database.drop });
    url = database.url;
  }
  const service = createSampleService({ apiKey: 'k', profile: 'deployed', dataset });
  const engine = await openPostgresEngine({ connectionString: url });
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= engine.close());
  opened.push({ close });
  const { app } = createProxy({
    upstream: sampleUpstream(service),
    store: { engine, secret: await storeSecret(engine), settings: { headIntervalMs: 60_000 } },
  });
  return { app, service, url, close };
}

type Body = { result: Record<string, string>[]; cursor?: string | null };

async function walk(
  app: { request: (path: string) => Response | Promise<Response> },
  limit: number,
) {
  const keys: string[] = [];
  let cursor: string | null | undefined = null;
  for (;;) {
    const path: string = `${eventsPath}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const response = await app.request(path);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Body;
    if (body.cursor) expect(response.headers.get('x-next-cursor')).toBe(body.cursor);
    for (const record of body.result) {
      keys.push(`${record.transaction_hash}:${record.event_type}:${record.event_id}`);
    }
    cursor = body.cursor;
    if (!cursor) return keys;
  }
}

describe('the proxy with its event store', () => {
  it('serves every record once, in the service’s order, with cursors of its own', async () => {
    const { app, service } = await setUp();
    const direct = await walkService(service);
    const first = await walk(app, 100);
    expect(first).toEqual(direct.keys);
    const spent = service.requestCount();
    // Depth is read once, in the largest pages: a 1 MB page per request, not a 100-event one.
    expect(spent - direct.requests).toBeLessThanOrEqual(Math.ceil(direct.keys.length / 1_000));
    // A second walk, at another page size, costs the upstream nothing.
    expect(await walk(app, 5000)).toEqual(direct.keys);
    expect(service.requestCount()).toBe(spent);
  });

  it('walks on when the service has forgotten its cursors', async () => {
    const { app, service } = await setUp();
    const direct = await walkService(service);
    const page = (await (await app.request(`${eventsPath}?limit=100`)).json()) as Body;
    expect(page.result).toHaveLength(100);
    service.forgetCursors();
    expect(await walk(app, 100)).toEqual(direct.keys);
  });

  it('keeps what it read across a restart: a stored walk then costs one request', async () => {
    const first = await setUp();
    const keys = await walk(first.app, 1000);
    await first.close();
    const again = await setUp(first.url);
    const before = again.service.requestCount();
    expect(await walk(again.app, 1000)).toEqual(keys);
    // At most the head, read again when it is due.
    expect(again.service.requestCount() - before).toBeLessThanOrEqual(1);
  });

  it('answers a cursor it did not issue 410, which the browser takes as "start again"', async () => {
    const { app } = await setUp();
    const response = await app.request(`${eventsPath}?cursor=0f1e2d3c-aaaa-bbbb-cccc-123456789abc`);
    expect(response.status).toBe(410);
    expect(((await response.json()) as { error: { kind: string } }).error.kind).toBe(
      'expired_cursor',
    );
  });
});

/** The same list walked on the service itself, with its largest pages. */
async function walkService(service: ReturnType<typeof createSampleService>) {
  const keys: string[] = [];
  let cursor: string | undefined;
  const before = service.requestCount();
  do {
    const path = `/v1/events/${busiest.address}?limit=5000${cursor ? `&cursor=${cursor}` : ''}`;
    const response = await service.fetch(path, { headers: { 'x-api-key': 'k' } });
    const body = (await response.json()) as Body;
    for (const record of body.result) {
      keys.push(`${record.transaction_hash}:${record.event_type}:${record.event_id}`);
    }
    cursor = body.cursor ?? undefined;
  } while (cursor);
  return { keys, requests: service.requestCount() - before };
}
