import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServerApp } from '../../../src/server/http/server-app';
import { generateDataset } from '../../../src/server/sample-service';
import { useIndexedSample } from '../../support/indexed-sample';
import { pngSize } from './png-size';

/**
 * A card for a collection whose name is 10,000 characters long: drawn within its time
 * bound (or the plain card is sent), while the server goes on answering `/healthz` at
 * once. Drawing happens on another thread; a name is cut before it is laid out.
 */
const LONG_NAME = 'Wide Name '.repeat(1_000);
const dataset = generateDataset({ seed: 11, contracts: 2, events: 600 });
const named = dataset.contracts[0]!;
named.name = LONG_NAME;
const CARD_BOUND_MS = 500;
// A request the event loop is free to answer takes a few milliseconds, some hundreds on a
// machine busy with other work; a card drawn on the loop held it for seconds.
const HEALTHZ_BOUND_MS = 1_000;

let clientDir: string;
beforeAll(() => {
  clientDir = mkdtempSync(join(tmpdir(), 'client-'));
  writeFileSync(join(clientDir, 'index.html'), readFileSync('index.html', 'utf8'));
});
afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

const setUpDrawn = useIndexedSample(dataset);
const setUpHurried = useIndexedSample(dataset, { preview: { renderTimeoutMs: 1 } });

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

/** The production app on a real socket: a request waits on the event loop as a visitor's does. */
async function serverOn(setUp: typeof setUpDrawn) {
  const { proxy } = await setUp();
  await proxy.indexer!.listed();
  await proxy.indexer!.whole(named.address).done;
  const app = createServerApp({ proxy, clientDir, publicUrl: 'https://cards.example' });
  server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }) as Server;
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const get = (path: string) => fetch(`http://127.0.0.1:${port}${path}`);
  return { get, proxy };
}

const cardPath = (tokenId: string) =>
  `/api/preview/collections/${named.address}/tokens/${tokenId}.png`;

describe('a card whose collection has a 10,000-character name', () => {
  it('is drawn within its bound, and /healthz is answered at once meanwhile', async () => {
    const { get, proxy } = await serverOn(setUpDrawn);
    // The drawing thread started, and the card's figures read: what is left is drawing.
    expect((await get(cardPath('1'))).status).toBe(200);
    expect((await get(`/contracts/${named.address}/tokens/777`)).status).toBe(200);

    const started = performance.now();
    let cardMs: number | undefined;
    const card = get(cardPath('777')).then(async (response) => {
      cardMs = performance.now() - started;
      return { response, png: new Uint8Array(await response.arrayBuffer()) };
    });
    const healthz: number[] = [];
    while (cardMs === undefined) {
      const asked = performance.now();
      expect((await get('/healthz')).status).toBe(200);
      healthz.push(performance.now() - asked);
    }
    const { response, png } = await card;
    expect(response.status).toBe(200);
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 });
    // The card, or the plain card sent at the bound (the loop's own delay aside).
    const fellBack = proxy.stats().previews.fallbacks > 0;
    expect(cardMs).toBeLessThanOrEqual(fellBack ? CARD_BOUND_MS + HEALTHZ_BOUND_MS : CARD_BOUND_MS);
    expect(healthz.length).toBeGreaterThan(0);
    expect(Math.max(...healthz)).toBeLessThan(HEALTHZ_BOUND_MS);
  }, 60_000);

  it('is the plain card, briefly cached, when it is late; the card is kept once drawn', async () => {
    const { get, proxy } = await serverOn(setUpHurried);
    const late = await get(cardPath('777'));
    expect(late.status).toBe(200);
    expect(late.headers.get('content-type')).toBe('image/png');
    expect(late.headers.get('cache-control')).toBe('public, max-age=30');
    expect(late.headers.get('etag')).toBeNull();
    expect(pngSize(new Uint8Array(await late.arrayBuffer()))).toEqual({
      width: 1200,
      height: 630,
    });
    expect(proxy.stats().previews.fallbacks).toBe(1);
    // Drawn all the same, and kept: the next visitor gets the card itself.
    await expect.poll(() => proxy.stats().previews.entries).toBe(1);
    const drawn = await get(cardPath('777'));
    expect(drawn.headers.get('cache-control')).toBe('public, max-age=300');
    expect(drawn.headers.get('etag')).not.toBeNull();
    expect(proxy.stats().previews.fallbacks).toBe(1);
  }, 60_000);
});
