import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { Page } from '@playwright/test';
import { formatCount } from '../../src/lib/format';
import { stopLeftPostgres } from '../../src/server/database/embedded-postgres';
import {
  createArrivals,
  createSampleService,
  generateDataset,
  TIMELINE,
  type Arrival,
} from '../../src/server/sample-service';
import { changesOfHands, rawRecords } from '../support/raw-records';
import { freePort } from '../support/free-port';
import { startDropProxy } from './support/drop-proxy';
import { expect, test } from './support/fixtures';
import { startAppServer, stopChildren } from './support/processes';
import { expectLayoutInBothSchemes, WIDTHS } from './support/layout';
import { drawnInFull } from './support/pages';
import { dataRows, eventsTable, loadStatus, rowSignatures } from './support/ui';

/*
 * Live pages in Chromium. These tests add events to the service while they run, so they
 * have servers of their own (the shared ones must not change under other tests): a
 * sample service in this process, whose next live arrival a test makes at once
 * (`createArrivals`, what its timer does every 6–18 s), and a production server in front
 * of it reading heads every second. The browser reaches that server through a proxy that
 * can cut its connections, as a load balancer or a lost network does.
 */
test.describe.configure({ mode: 'serial', timeout: 120_000 });
// Tall enough for the table (virtualised) to render the rows below the new ones.
test.use({ viewport: { width: 1280, height: 2400 } });

// The key raw-records.ts sends.
const API_KEY = 'k';
const dataset = generateDataset({ seed: 5, contracts: 3, events: 4_000, anchor: TIMELINE.end });
const service = createSampleService({ apiKey: API_KEY, profile: 'deployed', dataset });
const arrivals = createArrivals(dataset);
const [busiest] = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount);
const contract = busiest!;

let sample: ServerType | undefined;
let appUrl = '';
let proxy: Awaited<ReturnType<typeof startDropProxy>> | undefined;
const children: ChildProcess[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'token-dashboard-e2e-live-'));

test.beforeAll(async () => {
  // As root the embedded PostgreSQL runs as the postgres user, who must reach DATA_DIR.
  chmodSync(dataDir, 0o755);
  const samplePort = await freePort();
  sample = serve({ fetch: service.app.fetch, port: samplePort, hostname: '127.0.0.1' });
  appUrl = await startAppServer(
    'app-live',
    {
      port: await freePort(),
      sampleUrl: `http://127.0.0.1:${samplePort}`,
      apiKey: API_KEY,
      env: { DATA_DIR: dataDir, HEAD_READ_SECONDS: '1' },
    },
    children,
  );
  proxy = await startDropProxy(appUrl);
});

test.afterAll(async () => {
  await proxy?.close();
  await stopChildren(children);
  await stopLeftPostgres(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
  await new Promise((resolve) => (sample ? sample.close(resolve) : resolve(undefined)));
});

/** The collection's changes of hands as the service's records say, counted apart from the app. */
const rawEventCount = async () =>
  changesOfHands(await rawRecords(service, contract.address)).length;

const figure = (page: Page, label: string) =>
  page
    .locator('dl > div')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');

/** The next arrival, on the collection the page shows. */
function arrive(): Arrival {
  const arrival = arrivals.arrive(contract);
  if (!arrival) throw new Error('No arrival');
  return arrival;
}

test('a new change of hands reaches an open collection page, and a dropped stream resumes with nothing lost or doubled', async ({
  page,
}) => {
  const streamOpened = page.waitForResponse((response) =>
    new URL(response.url()).pathname.startsWith(`/api/live/collections/${contract.address}`),
  );
  await page.goto(`${proxy!.url}/contracts/${contract.address}`);
  const table = eventsTable(page);
  // Read whole (the figure is the records' count), and the stream open.
  await expect(figure(page, 'Events')).toHaveText(formatCount(await rawEventCount()), {
    timeout: 60_000,
  });
  await streamOpened;
  await expect(dataRows(table).first()).toBeVisible();
  // Settled: the whole history's first view loaded again once read whole, nothing busy.
  await drawnInFull(page);
  const before = await rowSignatures(table, 1);

  const first = arrive();
  await expect(dataRows(table).first()).toContainText('New', { timeout: 15_000 });
  await expect(dataRows(table).first().getByTitle(`Token ${first.token.id}`)).toBeVisible();
  await expect(figure(page, 'Events')).toHaveText(formatCount(await rawEventCount()));
  expect((await rowSignatures(table, 2))[1]).toBe(before[0]);

  // The connection is cut; the browser opens the stream again with the last event id it
  // had, held at the proxy while two more changes of hands are read by the server (another
  // visitor's request reads the collection's head).
  proxy!.drop();
  const resumed = await proxy!.heldRequest(
    /^GET \/api\/live\/collections\/0x[0-9a-f]+ [\s\S]*\r\n\r\n/,
  );
  expect(resumed).toMatch(/\r\nlast-event-id: \d+_\d+\r\n/i);
  const missed = [arrive(), arrive()];
  const total = await rawEventCount();
  await expect
    .poll(
      async () => {
        const response = await fetch(`${appUrl}/api/collections/${contract.address}`);
        const answer = (await response.json()) as { figures?: { events: number } | null };
        return answer.figures?.events;
      },
      { timeout: 15_000 },
    )
    .toBe(total);
  proxy!.release();

  // The two rows missed arrive once each, above the first one (rows of one second in the
  // index's order); nothing comes twice.
  await expect(figure(page, 'Events')).toHaveText(formatCount(total), { timeout: 15_000 });
  const top = dataRows(table).filter({ hasText: 'New' });
  await expect(top).toHaveCount(3);
  for (const arrival of [first, ...missed]) {
    await expect(top.getByTitle(`Token ${arrival.token.id}`)).toHaveCount(1);
  }
  const shown = await rowSignatures(table, Infinity);
  expect(shown.slice(0, 3).every((row) => row.includes('New'))).toBe(true);
  expect(shown[3]).toBe(before[0]);
  expect(new Set(shown).size).toBe(shown.length);
});

test('a token page shows its new change of hands marked new, its figures following, at every width in both themes', async ({
  page,
}) => {
  // A token that has just moved: it has a holder to move it on from.
  const { token, timestamp } = arrive();
  const history = page.getByRole('table', { name: `History of token ${token.id}, oldest first` });
  const streamOpened = page.waitForResponse((response) =>
    new URL(response.url()).pathname.startsWith(
      `/api/live/collections/${contract.address}/tokens/${token.id}`,
    ),
  );
  await page.goto(`${proxy!.url}/contracts/${contract.address}/tokens/${token.id}`);
  await expect(loadStatus(page)).toHaveText(/^all \d+ events? loaded/, { timeout: 30_000 });
  const before = Number(/all (\d+)/.exec((await loadStatus(page).textContent()) ?? '')?.[1]);
  await streamOpened;
  await expect(history.getByText('New')).toHaveCount(0);
  const holder = figure(page, 'Current holder');
  const heldBy = await holder.textContent();
  await drawnInFull(page);

  // The next arrival moves this token on (as the sample's arrivals do, to another wallet).
  dataset.addMove(
    token,
    'transfer',
    (dataset.holder(token) + 1) % dataset.walletCount,
    Math.max(Math.floor(Date.now() / 1000), timestamp),
  );
  await expect(loadStatus(page)).toHaveText(new RegExp(`^all ${before + 1} events loaded`), {
    timeout: 15_000,
  });
  await expect(dataRows(history).last()).toContainText('New');
  await expect(history.getByText('New')).toHaveCount(1);
  await expect(holder).not.toHaveText(heldBy ?? '');

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 1100 });
    await expectLayoutInBothSchemes(page, 'live-token', width, true);
  }
});

test('a wallet page shows its new changes of hands across collections, and a dropped stream resumes with nothing lost or doubled', async ({
  page,
}) => {
  // A wallet that holds a token that has just moved, so the index has met it.
  const { token } = arrive();
  const holder = dataset.holder(token);
  const indexed = async () => {
    // Asking for the collection reads its head: the arrivals are indexed.
    await fetch(`${appUrl}/api/collections/${contract.address}`);
    const response = await fetch(
      `${appUrl}/api/collections/${contract.address}/tokens/${token.id}`,
    );
    const answer = (await response.json()) as { events?: unknown[]; owner?: string | null };
    return { events: answer.events?.length ?? 0, owner: answer.owner ?? null };
  };
  const moves = dataset.tokenEvents(token).length;
  await expect.poll(async () => (await indexed()).events, { timeout: 30_000 }).toBe(moves);
  const wallet = (await indexed()).owner!;
  const streamOpened = page.waitForResponse((response) =>
    new URL(response.url()).pathname.startsWith(`/api/live/wallets/${wallet}`),
  );
  await page.goto(`${proxy!.url}/addresses/${wallet}`);
  const table = page.getByRole('table', { name: 'Events of this wallet' });
  await expect(dataRows(table).first()).toBeVisible({ timeout: 30_000 });
  await streamOpened;
  await drawnInFull(page);
  const before = await rowSignatures(table, 1);
  await expect(table.getByText('New')).toHaveCount(0);

  // The token goes from the wallet to another, back to it, and away again.
  const move = (to: number) => {
    const newest = dataset.timestamp(dataset.eventCount - 1);
    dataset.addMove(token, 'transfer', to, Math.max(Math.floor(Date.now() / 1000), newest));
  };
  const other = (holder + 1) % dataset.walletCount;
  move(other);
  await expect(dataRows(table).first()).toContainText('New', { timeout: 15_000 });
  await expect(dataRows(table).first().getByTitle(`Token ${token.id}`)).toBeVisible();
  expect((await rowSignatures(table, 2))[1]).toBe(before[0]);

  // The connection is cut; the stream opened again with its last event id (every
  // collection's position) is held while two more changes of hands are indexed.
  proxy!.drop();
  const resumed = await proxy!.heldRequest(
    /^GET \/api\/live\/wallets\/0x[0-9a-f]+ [\s\S]*\r\n\r\n/,
  );
  expect(resumed).toMatch(/\r\nlast-event-id: w\d+-\d+_\d+(\.\d+-\d+_\d+)*\r\n/i);
  move(holder);
  move(other);
  await expect.poll(async () => (await indexed()).events, { timeout: 15_000 }).toBe(moves + 3);
  proxy!.release();

  const fresh = dataRows(table).filter({ hasText: 'New' });
  await expect(fresh).toHaveCount(3, { timeout: 15_000 });
  const shown = await rowSignatures(table, Infinity);
  expect(shown.slice(0, 3).every((row) => row.includes('New'))).toBe(true);
  expect(shown[3]).toBe(before[0]);
  expect(new Set(shown).size).toBe(shown.length);

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 1100 });
    await expectLayoutInBothSchemes(page, 'live-wallet', width, true);
  }
});

test('the ranking is read again when a collection has new rows, the collection marked updated, at every width in both themes', async ({
  page,
}) => {
  const streamOpened = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/live/collections',
  );
  await page.goto(`${proxy!.url}/contracts`);
  const row = page
    .getByRole('table', { name: /^Collections ranked by/ })
    .locator('tbody tr')
    .filter({ has: page.getByRole('link', { name: contract.name! }) });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await streamOpened;
  await expect(row.getByText('Updated')).toHaveCount(0);
  arrive();
  // Asking for the collection reads its head (the ranking's stream reads none).
  await fetch(`${appUrl}/api/collections/${contract.address}`);
  await expect(row.getByText('Updated')).toBeVisible({ timeout: 15_000 });
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 1100 });
    await expectLayoutInBothSchemes(page, 'live-ranking', width);
  }
});
