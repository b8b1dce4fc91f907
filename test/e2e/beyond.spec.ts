import { readFile } from 'node:fs/promises';
import { expect, test } from './support/fixtures';
import {
  dataRows,
  eventsTable,
  loadedCount,
  loadStatus,
  offerTwoNewEvents,
  settledStatus,
} from './support/ui';

// Larger pages make "Load full history" a few requests instead of many.
const settings = (pageSize: number) =>
  JSON.stringify({
    ipfsGateway: 'https://ipfs.io/ipfs/',
    timeZone: 'utc',
    timeDisplay: 'relative',
    pageSize,
  });

test('the activity chart covers the loaded events, then the whole history', async ({
  page,
  servers,
}) => {
  const contract = servers.contracts.deep[2]!;
  await page.addInitScript(
    (value) => localStorage.setItem('token-activity-settings', value),
    settings(1000),
  );
  await page.goto(`/contracts/${contract.address}`);
  const chart = page.getByRole('img', { name: /events per (day|hour)/ });
  await expect(chart).toBeVisible();
  await expect(page.getByText(/loaded events only/)).toBeVisible();
  const partial = Number(
    (await chart.getAttribute('aria-label'))!.split(' ')[0]!.replace(/,/g, ''),
  );
  expect(partial).toBe(await loadedCount(page));
  expect(await chart.locator('rect').count()).toBeGreaterThan(0);

  await page.getByRole('button', { name: 'Load full history' }).click();
  await expect(loadStatus(page)).toHaveText(
    new RegExp(`^all ${contract.rowCount.toLocaleString('en')} events loaded`),
    { timeout: 30_000 },
  );
  await expect(page.getByText(/the whole history/)).toBeVisible();
  await expect(chart).toHaveAttribute(
    'aria-label',
    new RegExp(`^${contract.rowCount.toLocaleString('en')} events per`),
  );
});

test('export writes the rows shown, filtered and sorted, with exact ids', async ({
  page,
  servers,
}) => {
  const contract = servers.contracts.deep[0]!;
  await page.goto(`/contracts/${contract.address}?kind=sale&sort=-token`);
  await expect(dataRows(eventsTable(page)).first()).toBeVisible();
  // Under a filter the list reads on until a screenful matches: wait until it is done.
  const status = await settledStatus(page);
  const shown = Number(/([\d,]+) match the filters/.exec(status)![1]!.replace(/,/g, ''));

  const [csvDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(csvDownload.suggestedFilename()).toMatch(/^events-0x[0-9a-f]{8}\.csv$/);
  const csv = (await readFile((await csvDownload.path())!, 'utf8')).trim().split('\r\n');
  expect(csv[0]).toBe(
    'kind,label,token_id,from,to,timestamp,time_utc,transaction_hash,event_id,' +
      'price_amount,price_symbol,currency_address,currency_assumed,price_base_units,' +
      'price_as_sent,quantity,marketplace,marketplace_address,contract_address',
  );
  expect(csv).toHaveLength(shown + 1);

  const [jsonDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export JSON' }).click(),
  ]);
  const json = JSON.parse(await readFile((await jsonDownload.path())!, 'utf8')) as {
    count: number;
    filters: Record<string, string>;
    rows: Array<{
      kind: string;
      token_id: string;
      price_as_sent?: string;
      price_amount?: string;
      price_base_units?: string;
    }>;
  };
  expect(json.count).toBe(shown);
  expect(json.filters).toEqual({ kind: 'sale', sort: '-token' });
  expect(
    json.rows.every(
      // Prices exist in the deployed records only; where present they are exact: decimal
      // base units, or the 0x + 64 hex digits the deployed service writes since October 2024.
      (row) =>
        row.kind === 'sale' &&
        /^\d+$/.test(row.token_id) &&
        (row.price_as_sent === undefined ||
          (/^(\d+|0x[0-9a-f]{64})$/.test(row.price_as_sent) &&
            /^\d+$/.test(row.price_base_units ?? '') &&
            (row.price_amount === undefined || /^\d+(\.\d+)?$/.test(row.price_amount)))),
    ),
  ).toBe(true);
  const ids = json.rows.map((row) => BigInt(row.token_id));
  expect(ids).toEqual([...ids].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
  // The CSV holds the same rows in the same order.
  expect(csv.slice(1).map((line) => line.split(',')[2])).toEqual(
    json.rows.map((row) => row.token_id),
  );
});

test('the provenance timeline tells the token’s chain', async ({ page, servers }) => {
  const { contract, id, rows } = servers.token;
  await page.goto(`/contracts/${contract}/tokens/${id}`);
  await expect(loadStatus(page)).toHaveText(`all ${rows} events loaded`);
  const timeline = page.getByRole('region', { name: 'Provenance' }).getByRole('list');
  // One step per change of hands and one for the holder: a sale's two records are one.
  await expect(timeline.getByRole('listitem')).toHaveCount(rows + 1);
  await expect(timeline.getByText(/held for 0 s\b/)).toHaveCount(0);
  await expect(timeline.getByRole('listitem').first()).toContainText('Minted to');
  await expect(timeline.getByRole('listitem').last()).toContainText(
    /Held now by|Burned: the token no longer exists/,
  );
  await expect(page.getByText('Distinct owners')).toBeVisible();
});

test('new events at the head are offered, and added without moving the rows', async ({
  page,
  servers,
}) => {
  const contract = servers.contracts.deep[1]!;
  await page.clock.install();
  await page.goto(`/contracts/${contract.address}`);
  const rows = dataRows(eventsTable(page));
  await expect(rows.first()).toBeVisible();
  const before = await loadedCount(page);
  const firstRow = await rows.first().innerText();

  await offerTwoNewEvents(page, contract.address);
  await page.clock.fastForward(31_000);
  const notice = page.getByRole('button', { name: '2 new events' });
  await expect(notice).toBeVisible();
  expect(await rows.first().innerText()).toBe(firstRow);
  await notice.click();
  await expect(loadStatus(page)).toHaveText(
    new RegExp(`^${(before + 2).toLocaleString('en')} events loaded`),
  );
  await expect(notice).toBeHidden();
});
