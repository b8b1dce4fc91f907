import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import {
  expectLayout,
  expectNoSidewaysScroll,
  expectRowsFitTheirHeight,
  expectTapTargets,
  screenshot,
  seriousViolations,
  WIDTHS,
} from './support/layout';
import { dataRows } from './support/ui';
import { indexedWallet } from './support/wallet';

/*
 * The collections ranking (/contracts) over the sample service, through the query API.
 * The e2e servers index nothing in the background (INDEX_BACKGROUND_SHARE=0), so a test
 * has the wallet tests' small collection indexed first (support/wallet.ts); the others
 * are indexed or not as other tests have left them, so the checks here hold whichever
 * are: an indexed collection leads a collection not indexed yet, and the order of the
 * indexed ones is the server's for everyone. The sample data ends on a fixed day long
 * past, so "All time" is the window with activity in it.
 */
test.describe.configure({ mode: 'parallel' });

const rankingTable = (page: Page) => page.getByRole('table', { name: /^Collections ranked by/ });
const rankingStatus = (page: Page) =>
  page.getByRole('status').filter({ hasText: /collections( loaded)? · by / });

/** Each rendered row: the collection's name and whether the index has its whole history. */
async function renderedRows(table: Locator) {
  return dataRows(table).evaluateAll((rows) =>
    rows.map((row) => ({
      name: row.querySelector('a[data-row-link]')?.textContent ?? '',
      whole: !/not indexed yet|indexing ·/.test(row.textContent ?? ''),
      notIndexed: /not indexed yet/.test(row.textContent ?? ''),
      cells: [...row.querySelectorAll('td')].map((cell) => cell.textContent?.trim() ?? ''),
    })),
  );
}

/** The names of the collections indexed whole, in the order shown. */
const wholeNames = async (table: Locator) =>
  (await renderedRows(table)).filter((row) => row.whole).map((row) => row.name);

const count = (text: string) => Number(text.replace(/,/g, ''));

test('the ranking: a window and a sort in the URL change the rows, survive a reload and are shared', async ({
  page,
  servers,
  browser,
}) => {
  test.setTimeout(150_000);
  const indexed = servers.contracts.forWallet;
  await indexedWallet(page.request, indexed);
  await page.goto('/contracts');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('NFT activity on Starknet');
  // The e2e servers ask their sample service as they would the real one.
  await expect(page.getByText(/^From the records of the Token Events Service\./)).toBeVisible();
  await expect(page).toHaveTitle('Collections · NFT activity on Starknet');
  const table = rankingTable(page);
  await expect(rankingStatus(page)).toHaveText(
    `all ${servers.contracts.count} collections · by events in the last 7 days`,
  );
  await expect(dataRows(table).first()).toBeVisible();

  // All time: the indexed collection has events; those not indexed yet come after it.
  await page.getByRole('button', { name: 'All time' }).click();
  await expect(page).toHaveURL('/contracts?window=all');
  await expect(rankingStatus(page)).toContainText('by events over their whole history');
  const rows = await renderedRows(table);
  expect(rows[0]!.whole).toBe(true);
  const firstNotIndexed = rows.findIndex((row) => row.notIndexed);
  if (firstNotIndexed >= 0)
    expect(rows.slice(firstNotIndexed).every((r) => r.notIndexed)).toBe(true);
  await expect(table.getByRole('link', { name: indexed.name, exact: true })).toBeVisible();

  // Sales, most first: the URL says so, and the indexed rows' sales go down.
  const sales = table.getByRole('columnheader', { name: /Sales/ });
  await sales.getByRole('button').click();
  await expect(page).toHaveURL('/contracts?sort=-sales&window=all');
  await expect(sales).toHaveAttribute('aria-sort', 'descending');
  await expect(rankingStatus(page)).toContainText('by sales over their whole history');
  const salesColumn = await table
    .locator('thead th')
    .evaluateAll((headers) => headers.findIndex((th) => /Sales/.test(th.textContent ?? '')));
  const salesShown = (await renderedRows(table))
    .filter((row) => row.whole)
    .map((row) => count(row.cells[salesColumn]!));
  expect(salesShown.length).toBeGreaterThan(0);
  expect([...salesShown].sort((a, b) => b - a)).toEqual(salesShown);
  const order = await wholeNames(table);

  // A reload shows the same view; so does the URL opened by someone else.
  await page.reload();
  await expect(sales).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByRole('button', { name: 'All time' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect.poll(() => wholeNames(table)).toEqual(order);
  const other = await (await browser.newContext()).newPage();
  await other.goto(`${new URL(page.url()).origin}/contracts?sort=-sales&window=all`);
  const otherTable = rankingTable(other);
  await expect(dataRows(otherTable).first()).toBeVisible();
  // Another test may finish indexing a collection meanwhile: the ones indexed in both
  // views are in the same order.
  const shared = await wholeNames(otherTable);
  const inBoth = order.filter((name) => shared.includes(name));
  expect(inBoth.length).toBeGreaterThan(0);
  expect(shared.filter((name) => inBoth.includes(name))).toEqual(inBoth);
  await other.context().close();

  // A collection opens from its row: its name is a real link, the rest of the row a click.
  const row = dataRows(table).filter({ has: page.getByRole('link', { name: indexed.name }) });
  await expect(row.getByRole('link', { name: indexed.name })).toHaveAttribute(
    'href',
    `/contracts/${indexed.address}`,
  );
  await row.locator('td').nth(salesColumn).click();
  await expect(page).toHaveURL(`/contracts/${indexed.address}`);
  await page.goBack();
  await expect(page).toHaveURL('/contracts?sort=-sales&window=all');
});

test('the search finds a collection on the server, by name or address, and says when none', async ({
  page,
  servers,
}) => {
  const hostile = servers.contracts.hostile;
  const busiest = servers.contracts.deep[0]!;
  await page.goto('/contracts?window=all');
  const table = rankingTable(page);
  await expect(dataRows(table).first()).toBeVisible();
  const box = page.getByRole('searchbox', { name: 'Search collections' });
  await box.fill(busiest.name.toUpperCase());
  await expect(page).toHaveURL(
    `/contracts?q=${encodeURIComponent(busiest.name.toUpperCase()).replace(/%20/g, '+')}&window=all`,
  );
  await expect(dataRows(table)).toHaveCount(1);
  await expect(dataRows(table).first()).toContainText(busiest.name);
  // An address as the app shortens it.
  const digits = hostile.address.slice(2).replace(/^0+/, '');
  await box.fill(`0x${digits.slice(0, 4)}…${digits.slice(-4)}`);
  await box.press('Enter');
  await expect(dataRows(table)).toHaveCount(1);
  // The hostile name is text, not markup.
  await expect(dataRows(table).first()).toContainText(hostile.name);
  await box.fill('no such collection anywhere');
  await expect(page.getByText('No collection matches “no such collection anywhere”')).toBeVisible();
  await page.getByRole('button', { name: 'Clear the search' }).click();
  await expect(page).toHaveURL('/contracts?window=all');
  await expect(box).toHaveValue('');
});

test('a URL with values the page does not know is replaced by its canonical one', async ({
  page,
}) => {
  await page.goto('/contracts?window=year&sort=size&currency=doge&sort=-holders');
  await expect(page).toHaveURL('/contracts');
  await page.goto('/contracts?currency=usdc&window=ALL&sort=-events');
  await expect(page).toHaveURL('/contracts?currency=USDC&window=all');
  await expect(
    rankingTable(page).getByRole('columnheader', { name: 'Volume (USDC)' }),
  ).toBeVisible();
});

for (const width of WIDTHS) {
  test(`collections at ${width} px, light and dark`, async ({ page, servers }) => {
    test.setTimeout(150_000);
    await indexedWallet(page.request, servers.contracts.forWallet);
    for (const scheme of ['light', 'dark'] as const) {
      const where = `collections at ${width} px, ${scheme}`;
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/contracts?window=all');
      const table = rankingTable(page);
      await expect(dataRows(table).first()).toBeVisible();
      await expectLayout(page, where);
      await screenshot(page, `collections-${width}-${scheme}`);
      expect.soft(await seriousViolations(page), `axe, ${where}`).toEqual([]);
    }
  });
}

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true, viewport: { width: 390, height: 844 } });

  test('cards as tall as their content, controls a finger’s size, none sideways', async ({
    page,
  }) => {
    await page.goto('/contracts?window=all');
    await expect(dataRows(rankingTable(page)).first()).toBeVisible();
    await expectNoSidewaysScroll(page, 'collections on a phone');
    await expectRowsFitTheirHeight(page, true);
    await expectTapTargets(page, 'collections on a phone');
  });
});
