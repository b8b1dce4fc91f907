import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { openWhenIndexed, subpageLayoutTests } from './support/layout';

/*
 * A collection's market over the whole history and a span: the tables and figures are the
 * server's, the span lives in the URL (a reload shows the same), a sale's token opens its
 * page, and the page reads at every width in either scheme.
 */
const marketsTable = (page: Page) =>
  page.getByRole('table', { name: 'Sales and volume per marketplace' });

/** Opens the page once the whole history is indexed, and waits for its rows. */
async function openIndexed(page: Page, path: string) {
  await openWhenIndexed(page, path);
  // The market reads every token minted: on a busy machine it takes seconds.
  await expect(marketsTable(page)).toBeVisible({ timeout: 30_000 });
}

test.describe.configure({ mode: 'parallel' });

test('the market of the whole history, then of a span kept in the URL; a top sale opens its token', async ({
  page,
  servers,
}) => {
  test.setTimeout(90_000);
  const collection = servers.contracts.deep[1]!;
  const path = `/contracts/${collection.address}/market`;
  await openIndexed(page, path);
  const answer = (await (
    await page.request.get(`/api/collections/${collection.address}/market`)
  ).json()) as {
    topSales: { sales: { tokenId: string }[] }[];
    marketplaces: { name: string | null; sales: number }[];
  };
  const tables = page.getByRole('table', { name: /^Top \d+ sales in / });
  await expect(tables).toHaveCount(answer.topSales.length);
  const top = marketsTable(page).getByRole('row').nth(1);
  await expect(top).toContainText(answer.marketplaces[0]!.sales.toLocaleString('en'));

  // The last day of the history's first third.
  const overview = (await (
    await page.request.get(`/api/collections/${collection.address}`)
  ).json()) as { figures: { firstActivity: number; lastActivity: number } };
  const { firstActivity, lastActivity } = overview.figures;
  const day = new Date((firstActivity + (lastActivity - firstActivity) / 3) * 1000)
    .toISOString()
    .slice(0, 10);
  await page.getByLabel('From', { exact: true }).fill(day);
  await expect(page).toHaveURL(new RegExp(`/market\\?from=${day}&to=`));
  await expect(page.getByRole('status').filter({ hasText: /^The market in / })).toBeVisible();
  const shown = await marketsTable(page).textContent();
  await page.reload();
  await expect(marketsTable(page)).toBeVisible();
  await expect(marketsTable(page)).toHaveText(shown!);
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(day);

  await page.getByRole('button', { name: 'Whole history' }).click();
  await expect(page).toHaveURL(new RegExp(`/market$`));
  // The whole history's answer, not the span's still shown while it loads.
  await expect(
    page.getByRole('status').filter({ hasText: /^The market over the whole history\./ }),
  ).toBeVisible();
  const link = tables.first().locator('a[href*="/tokens/"]').first();
  await expect(link).toHaveAttribute(
    'href',
    new RegExp(`/tokens/${answer.topSales[0]!.sales[0]!.tokenId}$`),
  );
  const href = await link.getAttribute('href');
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
});

subpageLayoutTests(
  'market',
  openIndexed,
  (page) => page.getByRole('table', { name: /^Time from mint to first sale/ }),
  { fullPage: true },
);

test('keyboard: the span’s dates, the flagged sales switch, Whole history and a top sale’s token are reached with Tab', async ({
  page,
  servers,
}) => {
  test.setTimeout(60_000);
  const collection = servers.contracts.deep[1]!;
  await openWhenIndexed(
    page,
    `/contracts/${collection.address}/market?from=2000-01-01&to=2000-01-02`,
  );
  await expect(page.getByText('No token minted in 1 Jan 2000')).toBeVisible();
  const whole = page.getByRole('button', { name: 'Whole history' });
  // The switch that leaves flagged sales out turns with Space; Shift+Tab from it reaches
  // Whole history (Tab inside a date input moves between its parts).
  const wash = page.getByRole('switch', { name: 'Leave flagged sales out' });
  await wash.focus();
  await page.keyboard.press('Space');
  await expect(page).toHaveURL(/wash=exclude/);
  // The switch shows its new state before it is pressed again, as a reader sees it.
  await expect(wash).toBeChecked();
  await expect(wash).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page).not.toHaveURL(/wash=/);
  await page.keyboard.press('Shift+Tab');
  await expect(whole).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/market$`));
  const token = page
    .getByRole('table', { name: /^Top \d+ sales in / })
    .first()
    .locator('a[href*="/tokens/"]')
    .first();
  await token.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/tokens\//);
});
