import type { Page } from '@playwright/test';
import { canonicalAddress } from '../../src/lib/address';
import { changesOfHands, countedCurrency, ETH_ADDRESS, rawRecords } from '../support/raw-records';
import { expect, test } from './support/fixtures';

/*
 * A shared link with a token or a price range lists only the matching rows, as many as
 * the service's own records hold, counted here from those records alone.
 */
const table = (page: Page) => page.getByRole('table', { name: 'Events of this collection' });
const rows = (page: Page) => table(page).locator('tbody tr:not([aria-hidden="true"])');
const viewLine = (page: Page) => page.getByLabel('This view', { exact: true });

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

test('a shared link with token= or a price range in ETH lists only the matching rows', async ({
  page,
  servers,
}) => {
  const busiest = servers.contracts.deep[0]!;
  const service = {
    fetch: (path: string) =>
      fetch(`${servers.sampleUrl}${path}`, { headers: { 'x-api-key': servers.apiKey } }),
  };
  const changes = changesOfHands(await rawRecords(service, busiest.address));

  await page.goto(`/contracts/${busiest.address}`);
  // A bound on a hang, not a wait: a busy machine reads a deep history slowly.
  await expect(page.getByText(/Whole history indexed/)).toBeVisible({ timeout: 150_000 });

  // One token: its rows alone, each naming it.
  const token = servers.longToken.id;
  const ofToken = changes.filter((change) => change.token === token).length;
  expect(ofToken).toBeGreaterThan(1);
  await page.goto(`/contracts/${busiest.address}?token=0x${BigInt(token).toString(16)}`);
  await expect(page).toHaveURL(new RegExp(`\\?token=${token}$`));
  await expect(viewLine(page)).toContainText(`This view: ${ofToken} of`);
  await expect(page.getByRole('status').filter({ hasText: /events? shown/ })).toHaveText(
    new RegExp(`^all ${ofToken} events shown`),
  );
  for (const row of await rows(page).all()) await expect(row).toContainText(token);
  await expect(
    page.getByRole('button', { name: `Remove the token filter ${token}` }),
  ).toBeVisible();

  // Sales in ETH (named, or assumed when none is named) from the lower quartile to the median.
  const eth = changes
    .filter((change) => change.sale)
    .filter((change) => {
      const named = change.sale!.currency_address;
      return countedCurrency(named && canonicalAddress(named)!) === ETH_ADDRESS;
    })
    .map((change) => BigInt(change.sale!.price!))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const min = eth[Math.floor(eth.length / 4)]!;
  const max = eth[Math.floor(eth.length / 2)]!;
  const inRange = eth.filter((price) => price >= min && price <= max).length;
  expect(inRange).toBeGreaterThan(0);
  expect(inRange).toBeLessThan(eth.length);
  await page.goto(`/contracts/${busiest.address}?minPrice=${min}&maxPrice=${max}&currency=ETH`);
  await expect(page).toHaveURL(/\?currency=ETH&maxPrice=\d+&minPrice=\d+$/);
  await expect(viewLine(page)).toContainText(`This view: ${inRange.toLocaleString('en')} of`);
  await expect(page.getByRole('group', { name: 'Price (ETH)' })).toBeEnabled();
  await expect(
    page.getByRole('button', { name: /^Remove the price filter .+ ETH$/ }),
  ).toBeVisible();
});
