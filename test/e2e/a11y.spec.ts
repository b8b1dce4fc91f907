import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import {
  contractsTable,
  dataRows,
  eventsTable,
  loadStatus,
  rankingOf,
  rankingStatus,
} from './support/ui';

test.describe.configure({ mode: 'parallel' });

/** Presses Tab until `target` has the focus. */
async function tabTo(page: Page, target: Locator, limit = 80): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press('Tab');
    const focused = await target
      .evaluate((element) => element === document.activeElement, undefined, { timeout: 2_000 })
      .catch(() => false);
    if (focused) return;
  }
  throw new Error(`${target} not reached in ${limit} presses of Tab`);
}

const focusRing = (target: Locator) =>
  target.evaluate((element) => {
    const style = getComputedStyle(element);
    return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
  });

test('contracts → contract → token with the keyboard alone; sections named by headings', async ({
  page,
  servers,
}) => {
  const busiest = servers.contracts.deep[0]!;
  await page.goto(rankingOf(busiest.name));
  await expect(rankingStatus(page)).toBeVisible();
  await expect(page.getByRole('region', { name: 'NFT activity on Starknet' })).toBeVisible();

  // The first Tab offers to skip the header.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();

  const contract = contractsTable(page).getByRole('link', { name: busiest.name });
  await tabTo(page, contract);
  expect(await focusRing(contract)).toBe(true);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`/contracts/${busiest.address}`);
  // The first visit of a collection starts its reading: its first page may take longer.
  await expect(dataRows(eventsTable(page)).first()).toBeVisible({ timeout: 20_000 });

  // A column header sorts with Enter too.
  const tokenHeader = eventsTable(page).getByRole('columnheader', { name: 'Token' });
  await tabTo(page, tokenHeader.getByRole('button'));
  await page.keyboard.press('Enter');
  await expect(tokenHeader).toHaveAttribute('aria-sort', 'ascending');

  const token = dataRows(eventsTable(page)).first().locator('a[href*="/tokens/"]');
  const href = (await token.getAttribute('href'))!;
  await tabTo(page, token);
  expect(await focusRing(token)).toBe(true);
  // The next stops, the row's first address (From, or To after a mint) opening its wallet
  // and the filter beside it, keep the focus: the row must not be rebuilt under it.
  await page.keyboard.press('Tab');
  await expect(page.locator(':focus')).toHaveAttribute('title', /— open this wallet$/);
  await page.keyboard.press('Tab');
  await expect(page.locator(':focus')).toHaveAttribute('aria-label', /^Show only events with 0x/);
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(token).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(href);
  const tokenId = href.split('/').pop()!;
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Token ${tokenId}`);
  await expect(page.getByRole('region', { name: `Token ${tokenId}` })).toBeVisible();
  await expect(loadStatus(page)).toHaveText(/^all [\d,]+ events loaded/);
});

// The events page's section is labelled by the contract's heading (aria-labelledby).
test('the contract page’s section is named by its heading', async ({ page, servers }) => {
  const busiest = servers.contracts.deep[0]!;
  await page.goto(`/contracts/${busiest.address}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(busiest.name);
  await expect(page.getByRole('region', { name: busiest.name })).toBeVisible();
});

test('copy icons take the system text colour in a high-contrast mode', async ({
  page,
  servers,
}) => {
  const busiest = servers.contracts.deep[0]!;
  await page.goto(`/contracts/${busiest.address}`);
  const copy = dataRows(eventsTable(page))
    .first()
    .getByRole('button', { name: /^Copy transaction hash/ });
  await expect(copy).toBeVisible();
  const icon = () =>
    copy.evaluate((element) => {
      const before = getComputedStyle(element, '::before');
      return {
        drawn: before.content !== 'none',
        mask: before.maskImage,
        colour: before.backgroundColor,
        bitmap: getComputedStyle(element).backgroundImage,
      };
    });
  const normal = await icon();
  expect(normal.drawn).toBe(false);
  expect(normal.bitmap).toContain('url(');

  await page.emulateMedia({ forcedColors: 'active' });
  const buttonText = await page.evaluate(() => {
    const probe = document.createElement('span');
    probe.style.color = 'ButtonText';
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  });
  const forced = await icon();
  expect(forced).toEqual({ drawn: true, mask: normal.bitmap, colour: buttonText, bitmap: 'none' });
});
