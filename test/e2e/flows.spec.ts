import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import {
  contractsTable,
  rankingStatus,
  dataRows,
  eventsTable,
  loadedCount,
  loadStatus,
  rowSignatures,
  scrollUntilMoreThan,
} from './support/ui';

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

/** Token ids of the rendered rows, from their links (the text may be shortened). */
const tokenIds = (table: Locator) =>
  dataRows(table).evaluateAll((rows) =>
    rows.map(
      (row) =>
        row.querySelector('a[href*="/tokens/"]')?.getAttribute('href')?.split('/').pop() ?? '',
    ),
  );

test('contracts → a contract → a token by clicking, then back and forward', async ({
  page,
  servers,
}) => {
  const busiest = servers.contracts.deep[0]!;
  await page.goto('/');
  await expect(page).toHaveURL(/\/contracts$/);
  await expect(heading(page)).toHaveText('NFT activity on Starknet');
  await expect(rankingStatus(page)).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search collections' }).fill(busiest.name);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/[?&]q=/);

  await contractsTable(page).getByRole('link', { name: busiest.name }).click();
  await expect(page).toHaveURL(`/contracts/${busiest.address}`);
  await expect(heading(page)).toContainText(busiest.name);
  await expect(loadStatus(page)).toHaveText(/^[\d,]+ of [\d,]+ events shown/);
  const events = eventsTable(page);
  await expect(dataRows(events).first()).toBeVisible();

  const link = dataRows(events).first().locator('a[href*="/tokens/"]');
  const tokenId = (await link.getAttribute('href'))!.split('/').pop()!;
  await link.click();
  await expect(page).toHaveURL(`/contracts/${busiest.address}/tokens/${tokenId}`);
  await expect(heading(page)).toHaveText(`Token ${tokenId}`);
  const history = page.getByRole('table', { name: `History of token ${tokenId}, oldest first` });
  await expect(loadStatus(page)).toHaveText(/^all [\d,]+ events loaded/);
  await expect(dataRows(history).first()).toBeVisible();
  const tokenPath = `/contracts/${busiest.address}/tokens/${tokenId}`;

  // Back and forward through the three pages.
  await page.goBack();
  await expect(page).toHaveURL(`/contracts/${busiest.address}`);
  await expect(heading(page)).toContainText(busiest.name);
  await expect(dataRows(eventsTable(page)).first()).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/contracts\?q=/);
  await expect(dataRows(contractsTable(page)).first()).toBeVisible();
  await page.goForward();
  await expect(page).toHaveURL(`/contracts/${busiest.address}`);
  await expect(dataRows(eventsTable(page)).first()).toBeVisible();
  await page.goForward();
  await expect(page).toHaveURL(tokenPath);
  await expect(heading(page)).toHaveText(`Token ${tokenId}`);
  await expect(dataRows(history).first()).toBeVisible();

  // The breadcrumb leads back to the contract, by its name.
  await page
    .getByRole('navigation', { name: 'Breadcrumb' })
    .getByRole('link', { name: busiest.name })
    .click();
  await expect(page).toHaveURL(`/contracts/${busiest.address}`);
});

test('back keeps the loaded rows and the place in them; a reload the same rows', async ({
  page,
  servers,
}) => {
  const busiest = servers.contracts.deep[0]!;
  await page.goto(`/contracts/${busiest.address}`);
  await expect(loadStatus(page)).toHaveText(/of [\d,]+ events shown/);
  await scrollUntilMoreThan(page, await loadedCount(page));
  await page.evaluate(() => window.scrollTo(0, 1500));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(1500);
  await expect(loadStatus(page)).not.toContainText('loading more');
  const loaded = await loadedCount(page);
  const rows = dataRows(eventsTable(page));
  const firstShown = async () =>
    rows.evaluateAll((all) => {
      const top = all.find((row) => row.getBoundingClientRect().bottom > 80);
      return top?.getAttribute('data-index');
    });
  const before = await firstShown();

  // To a token and back: the same rows, scrolled as they were.
  await rows.nth(3).locator('a[href*="/tokens/"]').click();
  await expect(page).toHaveURL(/\/tokens\//);
  await page.goBack();
  await expect(loadStatus(page)).toHaveText(new RegExp(`^${loaded.toLocaleString('en')} of`));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(1500);
  expect(await firstShown()).toBe(before);

  // A reload asks the server again: the same rows in the same order.
  await page.evaluate(() => window.scrollTo(0, 0));
  // The virtualiser draws the first rows again once it has seen the scroll.
  await expect(rows.first()).toHaveAttribute('data-index', '0');
  const top = await rowSignatures(eventsTable(page));
  await page.reload();
  await expect(rows.first()).toHaveAttribute('data-index', '0');
  await expect.poll(() => rowSignatures(eventsTable(page))).toEqual(top);
});

test('clicking a column header sorts the rows', async ({ page, servers }) => {
  const busiest = servers.contracts.deep[0]!;
  await page.goto(`/contracts/${busiest.address}`);
  const table = eventsTable(page);
  await expect(dataRows(table).first()).toBeVisible();
  const header = table.getByRole('columnheader', { name: 'Token' });
  await expect(header).not.toHaveAttribute('aria-sort');
  const before = await tokenIds(table);

  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/[?&]sort=token\b/);
  const ascending = await tokenIds(table);
  expect(ascending).not.toEqual(before);
  expect(ascending).toEqual(
    [...ascending].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0)),
  );

  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect(page).toHaveURL(/[?&]sort=-token\b/);
  const descending = await tokenIds(table);
  expect(descending).toEqual(
    [...descending].sort((a, b) => (BigInt(a) > BigInt(b) ? -1 : BigInt(a) < BigInt(b) ? 1 : 0)),
  );
  expect(descending[0]).not.toBe(ascending[0]);
});

test('the lookup box goes to a contract or a token, and explains bad input', async ({
  page,
  servers,
}) => {
  const busiest = servers.contracts.deep[0]!;
  const { contract, id } = servers.token;
  await page.goto('/contracts');
  const box = page.getByRole('textbox', { name: /^Go to a contract/ });

  await box.fill(`0x${busiest.address.slice(2).replace(/^0+/, '').toUpperCase()}`);
  await box.press('Enter');
  await expect(page).toHaveURL(`/contracts/${busiest.address}`);
  await expect(heading(page)).toContainText(busiest.name);

  await box.fill(`${contract} 0x${BigInt(id).toString(16)}`);
  await page.getByRole('button', { name: 'Go', exact: true }).click();
  await expect(page).toHaveURL(`/contracts/${contract}/tokens/${id}`);
  await expect(heading(page)).toHaveText(`Token ${id}`);

  for (const [input, message] of [
    ['hello', 'No collection named “hello”'],
    ['0xzz', 'An address is 0x'],
    [`${contract} twelve`, ''],
    ['', 'Paste a contract address'],
  ] as const) {
    await box.fill(input);
    await box.press('Enter');
    const error = page.getByRole('search').getByRole('alert');
    await expect(error).toBeVisible();
    if (message) await expect(error).toContainText(message);
    await expect(box).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(`/contracts/${contract}/tokens/${id}`);
  }
  // Typing again clears the complaint.
  await box.pressSequentially('0');
  await expect(page.getByRole('search').getByRole('alert')).toBeHidden();
});

test('a malformed address or token id in the URL', async ({ page, servers }) => {
  await page.goto('/contracts/0xnot-an-address');
  await expect(heading(page)).toHaveText('This is not a contract address');
  await expect(page.getByRole('alert')).toContainText('0xnot-an-address');
  await page.getByRole('link', { name: 'Back to the contract list' }).click();
  await expect(page).toHaveURL('/contracts');
  await expect(contractsTable(page)).toBeVisible();

  await page.goto(`/contracts/0x${'a'.repeat(65)}/tokens/1`);
  await expect(heading(page)).toHaveText('This is not a contract address');

  await page.goto(`/contracts/${servers.token.contract}/tokens/12abc`);
  await expect(heading(page)).toHaveText('This is not a token id');
  await expect(page.getByRole('alert')).toContainText('12abc');

  await page.goto('/no/such/page');
  await expect(heading(page)).toHaveText('Page not found');
});
