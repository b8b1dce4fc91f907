import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { openWhenIndexed, subpageLayoutTests } from './support/layout';

/*
 * A collection's holders, now and at the end of a past day: the figures and rows are the
 * server's, the day lives in the URL (a reload shows the same), and the snapshot downloads
 * as a CSV file with one line per holder.
 */
const table = (page: Page) => page.getByRole('table', { name: /largest first$/ });
const rows = (page: Page) => table(page).locator('tbody tr:not([aria-hidden="true"])');
const holdersFigure = (page: Page) =>
  page.locator('dt', { hasText: /^Holders$/ }).locator('xpath=following-sibling::dd');
const count = async (page: Page) =>
  Number((await holdersFigure(page).textContent())!.replace(/,/g, ''));
const owners = (page: Page) =>
  rows(page)
    .locator('a[href^="/addresses/"]')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')));

/** Opens the page once the whole history is indexed, and waits for its rows. */
async function openIndexed(page: Page, path: string) {
  await openWhenIndexed(page, path);
  await expect(rows(page).first()).toBeVisible();
}

test.describe.configure({ mode: 'parallel' });

test('as of a past day: other figures and rows, kept in the URL through a reload, and its CSV snapshot', async ({
  page,
  servers,
}) => {
  test.setTimeout(90_000);
  const collection = servers.contracts.deep[1]!;
  const path = `/contracts/${collection.address}/holders`;
  await openIndexed(page, path);
  const now = await count(page);
  expect(now).toBeGreaterThan(0);

  // A day a third of the way through the history.
  const overview = (await (
    await page.request.get(`/api/collections/${collection.address}`)
  ).json()) as {
    figures: { firstActivity: number; lastActivity: number };
  };
  const { firstActivity, lastActivity } = overview.figures;
  const at = firstActivity + Math.floor((lastActivity - firstActivity) / 3);
  const day = new Date(at * 1000).toISOString().slice(0, 10);
  await page.getByLabel('As of the end of (UTC)').fill(day);
  await expect(page).toHaveURL(new RegExp(`/holders\\?asOf=${day}$`));
  await expect(table(page)).toHaveAccessibleName(/^Holders at the end of/);
  // The figures are a placeholder while the day's answer comes, then its own.
  await expect(holdersFigure(page)).toHaveText(/^[\d,]+$/);
  await expect(holdersFigure(page)).not.toHaveText(now.toLocaleString('en'));
  const then = await count(page);
  const shown = await owners(page);
  expect(shown.length).toBeGreaterThan(0);

  await page.reload();
  await expect(table(page)).toHaveAccessibleName(/^Holders at the end of/);
  await expect(rows(page).first()).toBeVisible();
  await expect(holdersFigure(page)).toHaveText(then.toLocaleString('en'));
  expect(await owners(page)).toEqual(shown);
  await expect(page.getByLabel('As of the end of (UTC)')).toHaveValue(day);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download CSV snapshot' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(
    `holders-${collection.address.slice(0, 10)}_asof-${day}.csv`,
  );
  const [header, ...lines] = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split('\r\n');
  expect(header).toBe('owner,tokens,since_utc,as_of_utc');
  expect(lines).toHaveLength(then);
  expect(lines.slice(0, shown.length).map((line) => `/addresses/${line.split(',')[0]}`)).toEqual(
    shown,
  );

  // Back to the collection's events.
  await page.getByRole('link', { name: '‹ Back to the collection’s events' }).click();
  await expect(page).toHaveURL(new RegExp(`/contracts/${collection.address}$`));
});

subpageLayoutTests('holders', openIndexed, (page) =>
  page.getByRole('table', { name: /Holders by tokens held/ }),
);
