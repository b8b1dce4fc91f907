import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { expectLayout, screenshot, seriousViolations, WIDTHS } from './support/layout';
import { drawnInFull } from './support/pages';
import { dataRows } from './support/ui';
import { indexedWallet } from './support/wallet';

/*
 * A wallet's page (/addresses/:address) over the query API, from the lookup box and at
 * every width, light and dark (screenshots: test/e2e/artifacts/screenshots/use-wallet-*).
 * The wallet is a buyer in the small collection only these tests and the collections'
 * open (support/wallet.ts indexes it first: the e2e servers index nothing by themselves).
 */
test.describe.configure({ mode: 'parallel' });
// Playwright reads the fixtures a function needs from its first parameter's pattern.
// eslint-disable-next-line no-empty-pattern
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== 'deployed', 'layout and input do not depend on the profile');
});

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const walletTable = (page: Page) => page.getByRole('table', { name: 'Events of this wallet' });
const shortWallet = (address: string) => {
  const digits = address.slice(2).replace(/^0+/, '');
  return `0x${digits.slice(0, 4)}…${digits.slice(-4)}`;
};

test('a wallet from the lookup box: its collections and its events', async ({ page, servers }) => {
  test.setTimeout(150_000);
  const contract = servers.contracts.forWallet;
  const wallet = await indexedWallet(page.request, contract);
  await page.goto('/contracts');
  await expect(page.getByRole('table').first()).toBeVisible();
  const box = page.getByRole('textbox', { name: /^Go to a contract/ });
  await box.fill(wallet.toUpperCase().replace('0X', '0x'));
  await box.press('Enter');
  const answer = page.getByRole('search').getByRole('alert');
  await expect(answer).toContainText('it may be a wallet or a transaction');
  await answer.getByRole('link', { name: 'Open as a wallet' }).click();
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
  // The collection's page is one click away.
  await collections.getByRole('link', { name: contract.name, exact: true }).click();
  await expect(page).toHaveURL(`/contracts/${contract.address}`);
});

test('a wallet names its collections without reading the service’s contract list', async ({
  page,
  servers,
}) => {
  test.setTimeout(150_000);
  const contract = servers.contracts.forWallet;
  const wallet = await indexedWallet(page.request, contract);
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

for (const width of WIDTHS) {
  test(`wallet at ${width} px, light and dark`, async ({ page, servers }) => {
    test.setTimeout(150_000);
    const contract = servers.contracts.forWallet;
    const wallet = await indexedWallet(page.request, contract);
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
    }
  });
}
