import { expect, test } from './support/fixtures';
import { dataRows, eventsTable, loadStatus, recordPages, settledStatus } from './support/ui';

/*
 * What the real service sends, as a visitor meets it through the server with its store:
 * each sale as two records, prices in hex or decimal in their currencies.
 */

test.beforeEach(({ servers }) => {
  test.skip(servers.profile !== 'deployed', 'the deployed profile is the real service’s');
});

test('each sale is one row, its price in its currency', async ({ page, servers }) => {
  const contract = servers.contracts.deep[0]!;
  await page.goto(`/contracts/${contract.address}`);
  const table = eventsTable(page);
  await expect(dataRows(table).first()).toBeVisible();
  // Each row's transaction and its price cell as read (without the notes of its hints).
  const rows = await dataRows(table).evaluateAll((elements) =>
    elements.map((row) => {
      const cell = row.children[5]!.cloneNode(true) as HTMLElement;
      cell.querySelectorAll('[role="tooltip"]').forEach((note) => note.remove());
      return {
        kind: row.children[0]!.textContent?.trim(),
        price: cell.textContent?.trim() ?? '',
        transaction: row.querySelector('td:last-child [title]')?.getAttribute('title'),
      };
    }),
  );
  // A sale's transfer and sale records are one row: no transaction twice.
  const transactions = rows.map((row) => row.transaction);
  expect(new Set(transactions).size).toBe(transactions.length);
  const prices = rows.filter((row) => row.kind === 'Sale').map((row) => row.price);
  expect(prices.length).toBeGreaterThan(0);
  for (const text of prices) {
    expect(text).toMatch(
      /^((≈ |< )?[\d,.]+ (ETH\?|ETH|STRK|USDC)|[\d,]+ base units of 0x[0-9a-f]{1,4}…[0-9a-f]{4})( · qty \d+)?( on \w+)?$/,
    );
  }
  await page.goto(`/contracts/${contract.address}?kind=sale`);
  await settledStatus(page);
  await expect(table.getByText(/^[\d,.]+ STRK$/).first()).toBeVisible();
});

test('the store’s answer for a cursor it no longer knows: the walk goes on from the newest', async ({
  page,
  servers,
  consoleWatch,
}) => {
  const contract = servers.contracts.forFaults[1]!;
  consoleWatch.allowApiFailures(410);
  const pages = recordPages(page, `/api/v1/events/${contract.address}`);
  // The first page names a cursor the store never issued (as one of a copy it dropped).
  await page.route(
    (url) =>
      url.pathname === `/api/v1/events/${contract.address}` && !url.searchParams.has('cursor'),
    async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as Record<string, unknown>;
      await route.fulfill({
        response,
        headers: { ...response.headers(), 'x-next-cursor': 'gone' },
        json: { ...body, cursor: 'gone' },
      });
    },
    { times: 1 },
  );
  await page.goto(`/contracts/${contract.address}`);
  await expect(dataRows(eventsTable(page)).first()).toBeVisible();
  await page.getByRole('button', { name: 'Load full history' }).click();
  await expect(loadStatus(page)).toHaveText(
    `all ${contract.rowCount.toLocaleString('en')} events loaded`,
    { timeout: 20_000 },
  );
  await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
  expect((await pages.records()).changes).toBe(contract.rowCount);
});
