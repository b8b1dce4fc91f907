import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { expectLayoutInBothSchemes, WIDTHS } from './support/layout';
import { indexedWallet } from './support/wallet';

/*
 * Two plain tables that once scrolled sideways inside the page at 390 px: a wallet's year
 * for taxes (seven columns) and the figures of two days compared. At every width each
 * fits its place: nothing to scroll, inside the page or out of it.
 */
const fits = async (box: Locator) =>
  expect
    .poll(() => box.evaluate((node) => node.scrollWidth - node.clientWidth))
    .toBeLessThanOrEqual(0);

async function eachWidth(page: Page, name: string, box: () => Locator) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await box().scrollIntoViewIfNeeded();
    await fits(box());
    await expectLayoutInBothSchemes(page, name, width);
  }
}

test('a wallet’s year for taxes fits the page at every width', async ({ page, servers }) => {
  test.setTimeout(240_000);
  const contract = servers.contracts.forWallet;
  await indexedWallet(page.request, contract);
  // A wallet that sold, and a year it sold in.
  const sales = await page.request.get(
    `/api/collections/${contract.address}/events?kind=sale&limit=50`,
  );
  const sellers = ((await sales.json()) as { events: { from: string; timestamp: number }[] })
    .events;
  let wallet = '';
  let year = 0;
  for (const sale of sellers) {
    const each = new Date(sale.timestamp * 1000).getUTCFullYear();
    const answer = await page.request.get(`/api/wallets/${sale.from}/tax-year?year=${each}`);
    if (((await answer.json()) as { sales: unknown[] }).sales.length > 0) {
      [wallet, year] = [sale.from, each];
      break;
    }
  }
  expect(year).toBeGreaterThan(0);
  await page.goto(`/addresses/${wallet}?year=${year}`);
  const table = page.getByRole('table', { name: / sold in \d{4}, oldest sale first/ });
  await expect(table.locator('tbody tr').first()).toBeVisible({ timeout: 30_000 });
  await eachWidth(page, 'tax-year', () => table.locator('xpath=..'));
});

test('the figures of two days compared fit the page at every width', async ({ page, servers }) => {
  test.setTimeout(240_000);
  const [first] = servers.contracts.deep;
  await expect
    .poll(
      async () => {
        const answer = await page.request.get(`/api/collections/${first!.address}/holders?limit=1`);
        return ((await answer.json()) as { coverage?: { complete?: boolean } }).coverage?.complete;
      },
      { timeout: 200_000 },
    )
    .toBe(true);
  await page.goto(`/contracts/${first!.address}/holders?view=compare`);
  const table = page.getByRole('table', { name: 'The collection at both moments' });
  await expect(table.locator('tbody tr').first()).toBeVisible({ timeout: 60_000 });
  await eachWidth(page, 'compare-figures', () => table.locator('xpath=..'));
});
