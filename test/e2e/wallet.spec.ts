import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import {
  expectLayout,
  expectNoSidewaysScroll,
  expectReadableColumns,
  screenshot,
  seriousViolations,
  WIDTHS,
} from './support/layout';
import { drawnInFull } from './support/pages';
import type { ProfileServers } from './support/servers';
import { dataRows } from './support/ui';
import { indexedWallet } from './support/wallet';

/*
 * A wallet's page (/addresses/:address) over the query API, from the lookup box and at
 * every width, light and dark, across its collections and inside one (`?collection=`)
 * (screenshots: test/e2e/artifacts/screenshots/use-wallet-*).
 * The wallet is a buyer in the small collection only these tests and the collections'
 * open (support/wallet.ts indexes it first: the e2e servers index nothing by themselves).
 */
test.describe.configure({ mode: 'parallel' });

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const walletTable = (page: Page) => page.getByRole('table', { name: 'Events of this wallet' });
const shortWallet = (address: string) => {
  const digits = address.slice(2).replace(/^0+/, '');
  return `0x${digits.slice(0, 4)}…${digits.slice(-4)}`;
};

/** The wallet of the tests' collection, once it is indexed (a test's first minutes). */
async function walletOfTests(page: Page, servers: ProfileServers) {
  test.setTimeout(150_000);
  const contract = servers.contracts.forWallet;
  return { contract, wallet: await indexedWallet(page.request, contract) };
}

test('a wallet from the lookup box: its collections and its events', async ({ page, servers }) => {
  const { contract, wallet } = await walletOfTests(page, servers);
  await page.goto('/contracts');
  await expect(page.getByRole('table').first()).toBeVisible();
  const box = page.getByRole('textbox', { name: /^Go to a contract/ });
  await box.fill(wallet.toUpperCase().replace('0X', '0x'));
  await box.press('Enter');
  // The server has seen it as a wallet: its page opens at once.
  await expect(page).toHaveURL(`/addresses/${wallet}`);
  await expect(page).toHaveTitle(`Wallet ${shortWallet(wallet)}`);
  await expect(heading(page)).toHaveText(`Wallet ${shortWallet(wallet)}`);
  const collections = page.getByRole('list', { name: 'Collections' });
  await expect(collections.getByRole('link', { name: contract.name, exact: true })).toBeVisible();
  await expect(collections).toContainText(/Bought\d+ sales? · /);
  const table = walletTable(page);
  await expect(dataRows(table).first()).toBeVisible();
  // Each row names its collection, a link to its page.
  await expect(dataRows(table).first().locator('a[href^="/contracts/0x"]').nth(1)).toBeVisible();
  // Newest first, and the wallet on every row.
  const times = await dataRows(table)
    .locator('time')
    .evaluateAll((nodes) => nodes.map((node) => Date.parse(node.getAttribute('datetime')!)));
  expect(times.length).toBeGreaterThan(0);
  expect([...times].sort((a, b) => b - a)).toEqual(times);
  for (const row of await dataRows(table).all())
    await expect(row.locator(`[data-address="${wallet}"]`).first()).toBeAttached();

  // One collection: the filter's choice in the URL; the way back to all of them.
  await page.getByRole('combobox', { name: 'Collection' }).selectOption({ label: contract.name });
  await expect(page).toHaveURL(`/addresses/${wallet}?collection=${contract.address}`);
  await expect(table.getByRole('columnheader', { name: 'Collection' })).toHaveCount(0);
  await expect(dataRows(table).first().locator('a[href*="/tokens/"]')).toHaveAttribute(
    'href',
    new RegExp(`^/contracts/${contract.address}/tokens/`),
  );
  // The view inside that collection replaces the cards; the collection's page is one click away.
  await expect(collections).toHaveCount(0);
  await page
    .getByRole('heading', { level: 2, name: `In ${contract.name}`, exact: true })
    .getByRole('link')
    .click();
  await expect(page).toHaveURL(`/contracts/${contract.address}`);
});

test('a wallet names its collections without reading the service’s contract list', async ({
  page,
  servers,
}) => {
  const { contract, wallet } = await walletOfTests(page, servers);
  const listReads: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/v1/contracts'))
      listReads.push(request.url());
  });
  await page.goto(`/addresses/${wallet}`);
  const collections = page.getByRole('list', { name: 'Collections' });
  await expect(collections.getByRole('link', { name: contract.name, exact: true })).toBeVisible();
  // Other tests index other collections this wallet traded in: the rows name whichever
  // collection they are of, by its name, never by its address.
  const collectionCell = dataRows(walletTable(page)).first().locator('a[title]').first();
  await expect(collectionCell).toHaveAttribute('title', /^(?!Contract 0x)/);
  expect(listReads).toEqual([]);
});

const heldChart = (page: Page) => page.getByRole('slider', { name: /^Tokens held, one value per/ });

test('a wallet inside a collection: from its card, by keyboard, shareable by its URL', async ({
  page,
  servers,
}) => {
  const { contract, wallet } = await walletOfTests(page, servers);
  await page.goto(`/addresses/${wallet}`);
  const card = page
    .getByRole('list', { name: 'Collections' })
    .getByRole('link', { name: new RegExp(`^In this collection: .*in ${contract.name},`) });
  await card.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`/addresses/${wallet}?collection=${contract.address}`);
  await expect(
    page.getByRole('heading', { level: 2, name: `In ${contract.name}`, exact: true }),
  ).toBeVisible();
  const figures = page.locator('dl[aria-label^="The wallet in"]');
  await expect(figures).toContainText(/Bought\d+ sales? · /);
  await expect(page.getByText(/Whole history indexed/)).toBeVisible();
  // The held chart answers the keys: Home is its first bucket.
  await heldChart(page).focus();
  await page.keyboard.press('Home');
  await expect(heldChart(page)).toHaveAttribute('aria-valuenow', '1');
  await expect(heldChart(page)).toHaveAttribute('aria-valuetext', /tokens? held at the end of the/);
  // Its events below it, in this collection only.
  await expect(
    page.getByRole('heading', { level: 2, name: `Events in ${contract.name}` }),
  ).toBeVisible();
  await expect(dataRows(walletTable(page)).first()).toBeVisible();
  // The same view again from its URL alone; a counterparty opens its own view there.
  const figuresText = await figures.textContent();
  await page.reload();
  await expect(figures).toHaveText(figuresText!);
  const party = page.getByRole('region', { name: 'Main counterparties' }).getByRole('link').first();
  const href = await party.getAttribute('href');
  expect(href).toMatch(new RegExp(`^/addresses/0x[0-9a-f]{64}\\?collection=${contract.address}$`));
  await party.click();
  await expect(page).toHaveURL(href!);
  await expect(heldChart(page)).toBeVisible();
});

for (const width of WIDTHS) {
  test(`wallet at ${width} px, light and dark`, async ({ page, servers }) => {
    const { contract, wallet } = await walletOfTests(page, servers);
    const holders = await page.request.get(`/api/collections/${contract.address}/holders?limit=1`);
    const busiest = ((await holders.json()) as { holders: { owner: string }[] }).holders[0]!.owner;
    for (const scheme of ['light', 'dark'] as const) {
      const where = (name: string) => `${name} at ${width} px, ${scheme}`;
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`/addresses/${wallet}`);
      await expect(page).toHaveTitle(`Wallet ${shortWallet(wallet)}`);
      await expect(page.getByRole('list', { name: 'Collections' })).toBeVisible();
      await expect(dataRows(walletTable(page)).first()).toBeVisible();
      // Nothing moves once the events are in: the table stays where it was drawn while
      // the rest of the page comes.
      const before = (await walletTable(page).boundingBox())!.y;
      await drawnInFull(page);
      expect((await walletTable(page).boundingBox())!.y).toBe(before);
      await expectLayout(page, where('wallet'));
      await screenshot(page, `use-wallet-${width}-${scheme}`);
      expect.soft(await seriousViolations(page), where('axe, wallet')).toEqual([]);

      // The collection's largest holder inside it (results, counterparties, many tokens),
      // its view above its events there.
      await page.goto(`/addresses/${busiest}?collection=${contract.address}`);
      await expect(heldChart(page)).toBeVisible();
      await expect(page.getByRole('region', { name: 'Main counterparties' })).toBeVisible();
      await expect(dataRows(walletTable(page)).first()).toBeVisible();
      // Its tables are plain ones (no set row height): the events' rows were checked above.
      await expectNoSidewaysScroll(page, where('wallet in a collection'));
      await expectReadableColumns(page, where('wallet in a collection'));
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `wallet-collection-${width}-${scheme}`);
      await page
        .getByRole('region', { name: 'Realised result per currency' })
        .scrollIntoViewIfNeeded();
      await screenshot(page, `wallet-collection-${width}-${scheme}-results`);
      expect.soft(await seriousViolations(page), where('axe, wallet in a collection')).toEqual([]);
    }
  });
}
