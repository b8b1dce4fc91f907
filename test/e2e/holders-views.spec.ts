import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { expectLayoutInBothSchemes, WIDTHS } from './support/layout';

/*
 * The views beside a collection's holders, each opened from a shared URL: what its holders
 * also hold, who holds it and another, and its holders at two days compared; a file of
 * each; drawn at every width in both themes.
 */
const changesTable = (page: Page) => page.getByRole('table', { name: /^Holders whose count/ });
const bodyRows = (table: ReturnType<typeof changesTable>) =>
  table.locator('tbody tr:not([aria-hidden="true"])');

/** Two days a third and two thirds into the collection's history. */
async function daysOf(page: Page, address: string) {
  const overview = (await (await page.request.get(`/api/collections/${address}`)).json()) as {
    figures: { firstActivity: number; lastActivity: number };
  };
  const { firstActivity, lastActivity } = overview.figures;
  const day = (share: number) =>
    new Date((firstActivity + (lastActivity - firstActivity) * share) * 1000)
      .toISOString()
      .slice(0, 10);
  return [day(1 / 3), day(2 / 3)] as const;
}

/**
 * Asks for the collections' holders until their whole histories are indexed (the first
 * question starts the reading): the views compare collections, each indexed in full.
 */
async function indexed(page: Page, ...addresses: string[]) {
  for (const address of addresses) {
    await expect
      .poll(
        async () => {
          const answer = await page.request.get(`/api/collections/${address}/holders?limit=1`);
          return ((await answer.json()) as { coverage?: { complete?: boolean } }).coverage
            ?.complete;
        },
        { timeout: 200_000 },
      )
      .toBe(true);
  }
}

test.describe.configure({ mode: 'parallel' });

test('two days compared, opened from a shared URL: the changes and figures of those days, through a reload, and its file', async ({
  page,
  servers,
}) => {
  test.setTimeout(180_000);
  const collection = servers.contracts.deep[1]!;
  const path = `/contracts/${collection.address}/holders`;
  await indexed(page, collection.address);
  const [from, to] = await daysOf(page, collection.address);
  // The page shows each day at its end: the next midnight, as the API is asked.
  const end = (day: string) => new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);
  const answer = (await (
    await page.request.get(
      `/api/collections/${collection.address}/holders/compare?from=${end(from)}&to=${end(to)}&limit=5`,
    )
  ).json()) as { changed: Record<string, number> };
  expect(answer.changed.joined! + answer.changed.left!).toBeGreaterThan(0);

  // A link as someone would share it: the view is read from `compare` alone.
  await page.goto(`${path}?compare=${from}..${to}`);
  await expect(page).toHaveURL(new RegExp(`/holders\\?compare=${from}\\.\\.${to}&view=compare$`));
  await expect(page.getByRole('link', { name: 'Two days compared' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.getByLabel('From')).toHaveValue(from);
  await expect(page.getByLabel('to', { exact: true })).toHaveValue(to);
  await expect(bodyRows(changesTable(page)).first()).toBeVisible();
  await expect(page.getByRole('table', { name: 'The collection at both moments' })).toBeVisible();
  const joined = page.locator('dt', { hasText: /^Joined$/ }).locator('xpath=following-sibling::dd');
  const shownJoined = answer.changed.joined!;
  await expect(joined).toHaveText(shownJoined.toLocaleString('en'));

  await page.reload();
  await expect(page.getByLabel('From')).toHaveValue(from);
  await expect(joined).toHaveText(shownJoined.toLocaleString('en'));

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download holders CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(
    `holders-${collection.address.slice(0, 10)}_compare-${from}_${to}.csv`,
  );
  const [header] = readFileSync((await download.path())!, 'utf8').split('\r\n');
  expect(header).toBe('owner,tokens_from,tokens_to,change,from_utc,to_utc');

  // Days in the wrong order: said above the view, the last 30 days compared instead.
  await page.goto(`${path}?compare=${to}..${from}`);
  await expect(page.getByText(/The first day is after the second/)).toBeVisible();
  await expect(page).toHaveURL(/\/holders\?view=compare$/);
  await expect(page.getByLabel('to', { exact: true })).toHaveValue('');
});

test('also hold, then who holds both, by keyboard; an address that is no collection is said in place', async ({
  page,
  servers,
  consoleWatch,
}) => {
  test.setTimeout(240_000);
  const [first, second] = servers.contracts.deep;
  await indexed(page, first!.address, second!.address);
  await page.goto(`/contracts/${first!.address}/holders?view=also-hold`);
  const table = page.getByRole('table', { name: /also hold, most holders in common first/ });
  await expect(bodyRows(table).first()).toBeVisible();
  const both = page.getByRole('link', { name: `Who holds both: ${second!.name}` });
  await both.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`view=overlap&with=${second!.address}$`));
  const holders = page.getByRole('table', { name: /^Holders of both/ });
  await expect(bodyRows(holders).first()).toBeVisible();
  const inCommon = page
    .locator('dt', { hasText: /^Hold both$/ })
    .locator('xpath=following-sibling::dd');
  await expect(inCommon).toHaveText(/^[1-9][\d,]*$/);

  // The overlap with an address that is no collection is the API's 404, said in place.
  consoleWatch.allowApiFailures(404);
  const nowhere = `0x${'7'.repeat(64)}`;
  await page.goto(`/contracts/${first!.address}/holders?view=overlap&with=${nowhere}`);
  await expect(page.getByRole('alert')).toContainText(
    `${nowhere} is not a collection the Token Events Service lists.`,
  );
  await expect(page.getByRole('link', { name: 'Overlap' })).toHaveAttribute('aria-current', 'page');
});

// One page load a view, drawn at each width in turn: the views' data are the same at each.
for (const view of ['also-hold', 'overlap', 'compare'] as const) {
  test(`the holders' ${view} view at ${WIDTHS.join(', ')} px, light and dark: nothing cut or sideways`, async ({
    page,
    servers,
  }) => {
    test.setTimeout(240_000);
    const [first, second] = servers.contracts.deep;
    await indexed(page, first!.address, second!.address);
    const search = view === 'overlap' ? `view=overlap&with=${second!.address}` : `view=${view}`;
    await page.goto(`/contracts/${first!.address}/holders?${search}`);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await expect(page.locator('tbody tr:not([aria-hidden="true"])').first()).toBeVisible();
      await expectLayoutInBothSchemes(page, `holders-${view}`, width, true);
    }
  });
}
