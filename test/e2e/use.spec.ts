import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import {
  expectLayout,
  expectNoSidewaysScroll,
  expectReadableColumns,
  expectRowsFitTheirHeight,
  expectTapTargets,
  screenshot,
  seriousViolations,
  WIDTHS,
} from './support/layout';
import { drawnInFull } from './support/pages';
import type { ProfileServers } from './support/servers';
import {
  chartsOpenFromStart,
  contractsTable,
  dataRows,
  eventsTable,
  loadStatus,
  rankingOf,
  rankingStatus,
} from './support/ui';

/*
 * The dashboard as a person uses it: every width from a small phone to a large screen,
 * light and dark, mouse, keyboard and touch. The walk through the three pages takes the
 * screenshots (test/e2e/artifacts/screenshots/use-*.png).
 */
test.describe.configure({ mode: 'parallel' });

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

/** The busiest contract's page, its first rows shown. */
async function openBusiest(page: Page, servers: ProfileServers) {
  const busiest = servers.contracts.deep[0]!;
  await page.goto(`/contracts/${busiest.address}`);
  await expect(dataRows(eventsTable(page)).first()).toBeVisible();
  return busiest;
}

for (const width of WIDTHS) {
  test(`contracts → contract → token at ${width} px, light and dark`, async ({ page, servers }) => {
    test.setTimeout(90_000);
    const busiest = servers.contracts.deep[0]!;
    await chartsOpenFromStart(page);
    for (const scheme of ['light', 'dark'] as const) {
      const where = (name: string) => `${name} at ${width} px, ${scheme}`;
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });

      await page.goto(rankingOf(busiest.name));
      await expect(rankingStatus(page)).toBeVisible();
      await expect(page).toHaveTitle('Collections · NFT activity on Starknet');
      await expectLayout(page, where('contracts'));
      await screenshot(page, `use-contracts-${width}-${scheme}`);
      expect.soft(await seriousViolations(page), where('axe, contracts')).toEqual([]);

      await contractsTable(page).getByRole('link', { name: busiest.name }).click();
      await expect(page).toHaveTitle(`${busiest.name} · activity`);
      await expect(dataRows(eventsTable(page)).first()).toBeVisible();
      await expect(page.getByRole('slider', { name: /^Bars, one per/ })).toBeVisible();
      await expectLayout(page, where('contract'));
      // Who sent to whom is on screen whatever the width.
      const firstRow = dataRows(eventsTable(page)).first();
      await expect(firstRow.locator('td').nth(2)).toBeVisible();
      await expect(firstRow.locator('td').nth(3)).toBeVisible();
      await screenshot(page, `use-contract-${width}-${scheme}`);
      expect.soft(await seriousViolations(page), where('axe, contract')).toEqual([]);

      // Exact times are longer: the columns make room for them, or give way.
      await page.getByRole('button', { name: 'Show exact times' }).click();
      await expect(
        eventsTable(page).getByRole('columnheader', { name: /Time \(UTC\)/ }),
      ).toBeVisible();
      await expectLayout(page, where('contract, exact times'));
      await page.getByRole('button', { name: 'Show relative times' }).click();

      const link = firstRow.locator('a[href*="/tokens/"]');
      const tokenId = (await link.getAttribute('href'))!.split('/').pop()!;
      await link.click();
      await expect(heading(page)).toHaveText(`Token ${tokenId}`);
      await expect(page).toHaveTitle(`Token ${tokenId} · ${busiest.name}`);
      await expect(loadStatus(page)).toHaveText(/^all [\d,]+ events loaded/);
      await expect(page.getByRole('link', { name: busiest.name }).first()).toBeVisible();
      await expectLayout(page, where('token'));
      if (width >= 1280) {
        // The table and the timeline side by side, not one under the other.
        const table = (await page.getByRole('table').boundingBox())!;
        const timeline = (await page.getByRole('region', { name: 'Provenance' }).boundingBox())!;
        expect(timeline.x).toBeGreaterThanOrEqual(table.x + table.width);
        expect(timeline.y).toBeLessThan(table.y + table.height);
      }
      await screenshot(page, `use-token-${width}-${scheme}`);
      expect.soft(await seriousViolations(page), where('axe, token')).toEqual([]);
    }
  });
}

test('no sideways scroll and readable columns from 320 to 2560 px', async ({ page, servers }) => {
  test.setTimeout(90_000);
  const busiest = servers.contracts.deep[0]!;
  const { contract, id } = servers.token;
  for (const [path, ready] of [
    [
      `/contracts/${busiest.address}`,
      () => expect(dataRows(eventsTable(page)).first()).toBeVisible(),
    ],
    [
      `/contracts/${busiest.address}?time=abs`,
      () => expect(dataRows(eventsTable(page)).first()).toBeVisible(),
    ],
    [`/contracts/${contract}/tokens/${id}`, () => expect(loadStatus(page)).toHaveText(/^all/)],
    ['/contracts', () => expect(dataRows(contractsTable(page)).first()).toBeVisible()],
  ] as const) {
    await page.goto(path);
    await ready();
    for (const width of [
      320, 360, 390, 600, 720, 721, 768, 800, 900, 1024, 1100, 1280, 1440, 1920, 2560,
    ]) {
      await page.setViewportSize({ width, height: 800 });
      // The table takes its columns before the next frame.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
      await expectNoSidewaysScroll(page, `${path} at ${width} px`);
      await expectReadableColumns(page, `${path} at ${width} px`);
    }
  }
});

test('columns that give way say so, and come back with the room', async ({ page, servers }) => {
  await page.setViewportSize({ width: 768, height: 800 });
  await page.goto(`/contracts/${servers.contracts.deep[0]!.address}`);
  const table = eventsTable(page);
  await expect(dataRows(table).first()).toBeVisible();
  await expect(page.getByText(/^Not shown at this width: .*Transaction\.$/)).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Transaction' })).toHaveCount(0);
  // Prices are what people come for: the price stays while the rest gives way.
  await expect(table.getByRole('columnheader', { name: /Price/ })).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(table.getByRole('columnheader', { name: 'Transaction' })).toBeVisible();
  await expect(page.getByText(/Not shown at this width/)).toHaveCount(0);
});

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true, viewport: { width: 390, height: 844 } });

  test('cards are as tall as their content, and every control is a finger’s size', async ({
    page,
    servers,
  }) => {
    const busiest = servers.contracts.deep[0]!;
    await page.goto('/contracts');
    await expect(dataRows(contractsTable(page)).first()).toBeVisible();
    await expectRowsFitTheirHeight(page, true);
    await expectTapTargets(page, 'contracts');
    await page.goto(`/contracts/${busiest.address}`);
    await expect(dataRows(eventsTable(page)).first()).toBeVisible();
    await expectRowsFitTheirHeight(page, true);
    await expectTapTargets(page, 'contract');
    // Cards of three lines, not 200 px of seven: more than four to a screen.
    const heights = await dataRows(eventsTable(page)).evaluateAll((rows) =>
      rows.map((row) => row.getBoundingClientRect().height),
    );
    expect(Math.max(...heights)).toBeLessThan(844 / 5);
    await page.evaluate(() => window.scrollTo(0, 1200));
    await expectTapTargets(page, 'contract, scrolled');
    await page.goto(`/contracts/${servers.token.contract}/tokens/${servers.token.id}`);
    await expect(loadStatus(page)).toHaveText(/^all/);
    await expectTapTargets(page, 'token');
  });
});

test('the keys dialog keeps the focus inside and gives it back; Esc closes it', async ({
  page,
  servers,
}) => {
  await page.goto(`/contracts/${servers.contracts.deep[0]!.address}`);
  await expect(dataRows(eventsTable(page)).first()).toBeVisible();
  const toggle = page.getByRole('button', { name: 'Show exact times' });
  await toggle.focus();
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  for (let presses = 0; presses < 6; presses++) {
    await page.keyboard.press(presses % 2 ? 'Shift+Tab' : 'Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(toggle).toBeFocused();
  await page.keyboard.press('?');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(toggle).toBeFocused();
});

test('j, k and Enter open a row after a button was clicked', async ({ page, servers }) => {
  const busiest = servers.contracts.deep[0]!;
  await page.goto(`/contracts/${busiest.address}`);
  const rows = dataRows(eventsTable(page));
  await expect(rows.first()).toBeVisible();
  // A click leaves the focus on the button: Enter must still open the row, not press it.
  await page.getByRole('button', { name: 'Show exact times' }).click();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  const second = rows.nth(1);
  await expect(second).toHaveAttribute('aria-current', 'true');
  await expect(second).toBeFocused();
  const href = (await second.locator('a[href*="/tokens/"]').getAttribute('href'))!;
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(href);
});

test('Settings close on Esc and on a click outside, which follows nothing', async ({
  page,
  servers,
}) => {
  const busiest = await openBusiest(page, servers);
  const toggle = page.getByRole('button', { name: 'Settings' });
  const times = page.getByRole('combobox', { name: 'Times' });
  await toggle.click();
  await expect(times).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(times).toBeHidden();
  await expect(toggle).toBeFocused();

  // A click on a token link under the open panel closes the panel and stays on the page.
  const link = dataRows(eventsTable(page)).first().locator('a[href*="/tokens/"]');
  await link.scrollIntoViewIfNeeded();
  await toggle.click();
  await expect(times).toBeVisible();
  const box = (await link.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(times).toBeHidden();
  await expect(page).toHaveURL(`/contracts/${busiest.address}`);
});

test('explorer links: a new tab without this page, to the explorer of the settings', async ({
  page,
  servers,
}) => {
  const busiest = servers.contracts.deep[0]!;
  await page.goto(`/contracts/${busiest.address}`);
  // A row's transaction opens its page here, which links to the explorer.
  const ours = dataRows(eventsTable(page)).first().locator('a[href^="/transactions/"]').first();
  await expect(ours).toHaveAttribute('href', /^\/transactions\/0x[0-9a-f]{64}$/);
  const hash = (await ours.getAttribute('href'))!.split('/').pop()!;
  await expect(
    page.getByRole('link', { name: `Open address ${busiest.address} in voyager.online (new tab)` }),
  ).toHaveAttribute('href', `https://voyager.online/contract/${busiest.address}`);

  await page.getByRole('button', { name: 'Settings' }).click();
  const explorer = page.getByRole('textbox', { name: 'Starknet explorer' });
  await explorer.fill('http://starkscan.co');
  await explorer.press('Enter');
  await expect(page.getByRole('alert')).toContainText('https://');
  await explorer.fill('https://starkscan.co/');
  await explorer.press('Enter');
  await page.keyboard.press('Escape');
  await ours.click();
  const tx = page.getByRole('link', { name: `Open transaction ${hash} in starkscan.co (new tab)` });
  await expect(tx).toHaveAttribute('href', `https://starkscan.co/tx/${hash}`);
  await expect(tx).toHaveAttribute('rel', 'noopener noreferrer');
});

test('the lookup’s answers lie over the page and move nothing; a wallet opens as one', async ({
  page,
  servers,
}) => {
  await openBusiest(page, servers);
  const box = page.getByRole('textbox', { name: /Go to a contract/ });
  const main = page.locator('main');
  const top = async () => (await main.boundingBox())!.y;
  const before = await top();

  // Something it cannot read: the answer lies over the page, the page stays where it was.
  await box.fill('no such collection anywhere');
  await box.press('Enter');
  await expect(page.getByRole('search').getByRole('alert')).toContainText('No collection named');
  expect(await top()).toBe(before);
  // Nor does the address filter's complaint move the table.
  const table = async () => (await eventsTable(page).boundingBox())!.y;
  const tableBefore = await table();
  const filter = page.getByRole('textbox', { name: 'Sender or receiver' });
  await filter.fill('0xfffff');
  await filter.press('Enter');
  await expect(page.locator('#address-filter-error')).toContainText('No loaded event');
  expect(await table()).toBe(tableBefore);
  await filter.fill('');

  // A wallet the index has seen: the server says so, and its page opens.
  const wallet = (await dataRows(eventsTable(page))
    .first()
    .locator('[data-address]')
    .last()
    .getAttribute('data-address'))!;
  await box.fill(wallet);
  await box.press('Enter');
  await expect(page).toHaveURL(`/addresses/${wallet}`);
});

test('a bar of the chart shows its time in the table, by click and by key', async ({
  page,
  servers,
}) => {
  const busiest = servers.contracts.deep[0]!;
  await page.setViewportSize({ width: 1280, height: 900 });
  await chartsOpenFromStart(page);
  await page.goto(`/contracts/${busiest.address}`);
  // Bars stay where they are once the whole history is in.
  await expect(page.getByText(/Whole history indexed/)).toBeVisible({ timeout: 25_000 });
  const rows = dataRows(eventsTable(page));
  await expect(rows.first()).toBeVisible();
  const slider = page.getByRole('slider', { name: /^Bars, one per/ });
  // The chart of the whole history, drawn, as its label says it.
  const chart = page.getByRole('img', { name: / events per / });
  await drawnInFull(page);
  const wholeHistory = (await chart.getAttribute('aria-label'))!;
  await slider.focus();
  await page.keyboard.press('End');
  const valuetext = (await slider.getAttribute('aria-valuetext'))!;
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/[?&]from=[^&]+&to=/);
  const span = valuetext.split(': ')[0]!;
  await expect(
    page.getByRole('button', { name: new RegExp(`Remove the time filter ${span}`) }),
  ).toBeVisible();
  // Every row shown is in the bar's time.
  const url = new URL(page.url());
  const from = Date.parse(url.searchParams.get('from')!);
  const to = Date.parse(url.searchParams.get('to')!);
  const inSpan = () =>
    rows.evaluateAll(
      (elements, [start, end]) =>
        elements.length > 0 &&
        elements.every((row) => {
          const time = Date.parse(row.querySelector('time')!.dateTime);
          return time >= start! && time < end!;
        }),
      [from, to],
    );
  await expect.poll(inSpan).toBe(true);
  // The URL keeps it: a reload shows the same.
  await page.reload();
  await expect.poll(inSpan).toBe(true);

  // A click on a bar does the same.
  await page.getByRole('button', { name: /Remove the time filter/ }).click();
  await expect(page).not.toHaveURL(/from=/);
  // The chart draws the whole history again once its series has come (its count and
  // buckets; the range runs to now, whose minute may have moved on since).
  const wholeCount = wholeHistory.slice(0, wholeHistory.indexOf(' from '));
  await expect(chart).toHaveAttribute('aria-label', new RegExp(`^${wholeCount} from `));
  // A quarter of the way along: well inside the history (the range runs on to today).
  const area = (await slider.boundingBox())!;
  await page.mouse.click(area.x + area.width / 5, area.y + area.height / 2);
  await expect(page).toHaveURL(/[?&]from=[^&]+&to=/);
});

test('an ERC1155 token says what its holder and owner counts leave out', async ({
  page,
  request,
}) => {
  const listed = (await (await request.get('/api/v1/contracts?limit=100')).json()) as {
    result: Array<{ contract_address: string; contract_type: string }>;
  };
  const multi = listed.result.find((contract) => contract.contract_type === 'ERC1155')!;
  const events = (await (
    await request.get(`/api/v1/events/${multi.contract_address}?limit=100`)
  ).json()) as { result: Array<{ token_id?: string }> };
  const tokenId = BigInt(events.result.find((event) => event.token_id)!.token_id!).toString();
  await page.goto(`/contracts/${multi.contract_address}/tokens/${tokenId}`);
  await expect(page.getByText(/neither counts quantities/)).toBeVisible();
  // Both ids copy.
  await expect(page.getByRole('button', { name: `Copy token id ${tokenId}` })).toBeVisible();
  await expect(
    page.getByRole('button', { name: /^Copy token id in hexadecimal 0x/ }),
  ).toBeVisible();
});

test('a malformed escape in the address is explained, with a clean console', async ({ page }) => {
  await page.goto('/contracts/0x12%zz');
  await expect(heading(page)).toHaveText('This is not a contract address');
  await expect(page.getByRole('alert')).toContainText('0x12%zz');
  await expect(page).toHaveTitle('This is not a contract address');
});
