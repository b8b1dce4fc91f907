import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { dataRows, eventsTable } from './support/ui';

/*
 * What a collection's first screen holds: its first rows on a laptop's screen, and on a
 * phone its order within reach of the filters, the cards' heading row naming only what
 * it sorts.
 */
// Room for the first visit's indexing (openFirstRows' bound) and the test after it.
test.describe.configure({ mode: 'parallel', timeout: 180_000 });

/** A collection's page once its first rows are there (the first visit starts the indexer). */
async function openFirstRows(page: Page, path: string) {
  await page.goto(path);
  // A bound on a hang, not a wait: a busy machine reads a deep history slowly.
  await expect(dataRows(eventsTable(page)).first()).toBeVisible({ timeout: 150_000 });
}

const chartsFold = (page: Page) => page.getByText('Charts: activity and sale prices');

test('at 1440 × 900 the first row is on the first screen; the charts open and stay open', async ({
  page,
  servers,
}) => {
  // deep[2] stays unopened (the token page's own test needs a collection not indexed).
  const busiest = servers.contracts.deep[0]!;
  await page.setViewportSize({ width: 1440, height: 900 });
  await openFirstRows(page, `/contracts/${busiest.address}`);
  const first = dataRows(eventsTable(page)).first();
  expect((await first.boundingBox())!.y).toBeLessThan(900);

  await chartsFold(page).click();
  await expect(page.getByRole('slider', { name: /^Bars, one per/ })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('slider', { name: /^Bars, one per/ })).toBeVisible();
});

test('at 390 px the sort is in the filter bar, and the heading row lists only sorts on two lines at most', async ({
  page,
  servers,
}) => {
  // deep[2] stays unopened (the token page's own test needs a collection not indexed).
  const busiest = servers.contracts.deep[0]!;
  await page.setViewportSize({ width: 390, height: 844 });
  await openFirstRows(page, `/contracts/${busiest.address}`);

  // The collection's other pages, a finger's size.
  for (const name of ['Holders', 'Market']) {
    const link = page.getByRole('link', { name, exact: true });
    expect((await link.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  }

  const sort = page.getByRole('combobox', { name: 'Sort' });
  const filters = page.getByRole('group', { name: /Event kinds/ });
  // Within a screen of the filters, above the table.
  const sortTop = (await sort.boundingBox())!.y;
  expect(sortTop - (await filters.boundingBox())!.y).toBeLessThan(844);
  expect(sortTop).toBeLessThan((await eventsTable(page).boundingBox())!.y);
  await sort.selectOption({ label: 'Price, highest first' });
  await expect(page).toHaveURL(/[?&]sort=-price/);
  await expect(eventsTable(page).locator('th[aria-sort="descending"]')).toHaveText(/Price/);

  const heads = eventsTable(page).locator('thead th');
  const shown = await heads.evaluateAll((cells) =>
    cells.filter((cell) => cell.getBoundingClientRect().height > 0).map((cell) => cell.textContent),
  );
  expect(shown.map((text) => text?.replace(/[↑↓↕▲▼\s]+$/u, '').trim())).toEqual([
    'Event',
    'Token',
    expect.stringMatching(/^Time/),
    'Price',
  ]);
  const row = (await eventsTable(page).locator('thead tr').boundingBox())!;
  const head = (await heads.first().boundingBox())!;
  expect(row.height).toBeLessThan(head.height * 2.5);
});
