import { afterEach, describe, expect, it } from 'vitest';
import { createSampleService, generateDataset } from '../../../src/server/sample-service';
import { indexedProxy } from '../../support/indexed-proxy';
import { startPostgres } from '../../support/postgres-server';
import { sampleUpstream } from '../../support/sample-upstream';

/**
 * PostgreSQL stopping under a running server: the requests that need it get a 503 that
 * names the database (never the Token Events Service), readiness says which side is
 * down, and the process goes on.
 */
const dataset = generateDataset({ seed: 3, contracts: 3, events: 3_000 });
const contract = dataset.contracts[0]!.address;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function serverOn(url: string) {
  const service = createSampleService({ apiKey: 'k', profile: 'deployed', dataset });
  const { proxy } = await indexedProxy({
    url,
    upstream: sampleUpstream(service),
    cleanups,
    queryTimeoutMs: 1_000,
    proxy: { readyCacheMs: 0 },
  });
  return proxy;
}

async function expectDatabaseError(response: Response) {
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toBe('5');
  const body = (await response.json()) as { error: { kind: string; message: string } };
  expect(body.error.kind).toBe('database');
  expect(body.error.message).toMatch(/database/);
}

describe('the database stopping while the server runs', () => {
  it('frozen: requests fail within the query timeout naming the database, and recover when it thaws', async () => {
    const server = await startPostgres();
    cleanups.push(() => server.stop());
    const proxy = await serverOn(server.url);
    const path = `/api/collections/${contract}/events?sort=-price`;
    expect((await proxy.app.request(path)).status).toBe(200);
    const thaw = server.freeze();
    cleanups.unshift(async () => thaw());
    await expectDatabaseError(await proxy.app.request(path));
    expect(await proxy.checkReady()).toMatchObject({
      ready: false,
      reason: expect.stringMatching(/database/),
    });
    thaw();
    // Served again without a restart, once PostgreSQL answers.
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt++) {
      status = (await proxy.app.request(path)).status;
    }
    expect(status).toBe(200);
  }, 60_000);

  it('answers 503 naming the database, and readiness says the database is down', async () => {
    const server = await startPostgres();
    cleanups.push(() => server.stop());
    const proxy = await serverOn(server.url);
    expect((await proxy.app.request(`/api/collections/${contract}`)).status).toBe(200);
    expect(await proxy.checkReady()).toMatchObject({ ready: true });

    server.kill();
    for (const path of [
      `/api/collections/${contract}/events?sort=-price`,
      `/api/v1/events/${contract}`,
    ]) {
      const response = await proxy.app.request(path);
      expect(response.status, path).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      const body = (await response.json()) as { error: { kind: string; message: string } };
      expect(body.error.kind).toBe('database');
      expect(body.error.message).toMatch(/database/);
      expect(body.error.message).not.toMatch(/^The Token Events Service/);
    }
    const readiness = await proxy.checkReady();
    expect(readiness).toMatchObject({ ready: false, reason: expect.stringMatching(/database/) });
  }, 60_000);
});
