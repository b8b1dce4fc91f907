import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalAddress } from '../../../src/lib/address';
import { createServerApp } from '../../../src/server/http/server-app';
import { generateDataset } from '../../../src/server/sample-service';
import { useIndexedSample } from '../../support/indexed-sample';
import { rawRecords } from '../../support/raw-records';

/**
 * The page of an address that is no listed collection: its HTML answers 404 and carries
 * no link-preview card, as the query API answers 404 for it; a collection's page is
 * unchanged.
 */
const dataset = generateDataset({ seed: 7, contracts: 3, events: 2_000 });
const busiest = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount)[0]!;

let clientDir: string;
beforeAll(() => {
  clientDir = mkdtempSync(join(tmpdir(), 'client-'));
  writeFileSync(join(clientDir, 'index.html'), readFileSync('index.html', 'utf8'));
});
afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

const setUpSample = useIndexedSample(dataset);

async function setUp() {
  const { proxy, service } = await setUpSample();
  const app = createServerApp({ proxy, clientDir });
  const get = (path: string) =>
    app.request(`http://internal${path}`, { headers: { host: '127.0.0.1:4173' } });
  return { proxy, service, get };
}

describe('an address that is no collection', () => {
  it('is a 404 page without a card, for a random address and for a wallet, on each of its pages', async () => {
    const { proxy, service, get } = await setUp();
    await proxy.indexer!.listed();
    await proxy.indexer!.whole(busiest.address).done;
    const wallet = canonicalAddress(
      (await rawRecords(service, busiest.address)).find((r) => r.event_type === 'sale')!
        .to_address!,
    )!;
    for (const path of [
      '/contracts/0x1',
      `/contracts/${wallet}`,
      '/contracts/0x1/tokens/5',
      '/contracts/0x1/holders',
      `/contracts/${wallet}/market`,
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      const html = await response.text();
      expect(html).toContain('<div id="root">');
      expect(html).not.toContain('og:image');
      expect((await proxy.app.request(`/api/collections/${path.split('/')[2]}`)).status).toBe(404);
    }
    for (const page of ['', '/holders', '/market']) {
      const collection = await get(`/contracts/${busiest.address}${page}`);
      expect(collection.status).toBe(200);
      expect(await collection.text()).toContain('og:image');
    }
  });

  it('is not called one before the contracts list is known', async () => {
    const { get } = await setUp();
    expect((await get('/contracts/0x1')).status).toBe(200);
  });
});
