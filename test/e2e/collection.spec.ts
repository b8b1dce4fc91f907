import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { expectLayout, screenshot, seriousViolations, WIDTHS } from './support/layout';
import { drawnInFull } from './support/pages';
import {
  chartsOpenFromStart,
  dataRows,
  eventsTable,
  loadedCount,
  rowSignatures,
  scrollUntilMoreThan,
} from './support/ui';

/*
 * A collection's page over the event index: every row, sort, filter and figure is the
 * server's answer over the whole history; the URL holds the view, so a reload, a new tab
 * or another person's browser show the same rows in the same order.
 */
const table = (page: Page) => page.getByRole('table', { name: 'Events of this collection' });
const rows = (page: Page) => table(page).locator('tbody tr:not([aria-hidden="true"])');
const shownStatus = (page: Page) =>
  page.getByRole('status').filter({ hasText: /(events?|priced sales?) shown/ });

/**
 * Opens the page once the whole history is indexed (the first visit starts the indexer;
 * its answers before then cover part of the history), its rows shown.
 */
async function openIndexed(page: Page, path: string) {
  await page.goto(path);
  // A bound on a hang, not a wait: a busy machine reads a deep history slowly.
  await expect(page.getByText(/Whole history indexed/)).toBeVisible({ timeout: 150_000 });
  await page.reload();
  await expect(page.getByText(/Whole history indexed/)).toBeVisible();
  await expect(rows(page).first()).toBeVisible();
}

// Room for openIndexed's bound and the test after it.
test.describe.configure({ mode: 'parallel', timeout: 180_000 });

test('a shared sorted and filtered view: the same rows in the same order, in a new browser and after a reload', async ({
  page,
  browser,
  servers,
}) => {
  const busiest = servers.contracts.deep[0]!;
  const path = `/contracts/${busiest.address}?kind=sale&sort=-price`;
  await openIndexed(page, path);
  await expect(shownStatus(page)).toContainText(/currenc/i);
  const kinds = await rows(page).locator('td:first-child').allTextContents();
  expect(new Set(kinds)).toEqual(new Set(['Sale']));
  // Exact times are part of the view too.
  await page.getByRole('button', { name: 'Show exact times' }).click();
  await expect(page.getByRole('button', { name: 'Show relative times' })).toBeVisible();
  await expect(page).toHaveURL(/kind=sale.*sort=-price.*time=abs/);
  const url = page.url();
  const mine = await rowSignatures(table(page));

  await page.reload();
  await expect(rows(page).first()).toBeVisible();
  expect(await rowSignatures(table(page))).toEqual(mine);

  // Someone else's browser: no cache, no settings, the link alone.
  const other = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const theirs = await other.newPage();
  const started = Date.now();
  await theirs.goto(url);
  await expect(theirs).toHaveURL(url);
  await expect(rows(theirs).first()).toBeVisible();
  const firstRowMs = Date.now() - started;
  expect(await rowSignatures(table(theirs))).toEqual(mine);
  // The view's controls say the link's view.
  await expect(theirs.getByRole('button', { name: 'Sale', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(table(theirs).getByRole('columnheader', { name: /Price/ })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await expect(theirs.getByRole('button', { name: 'Show relative times' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const theirKinds = await rows(theirs).locator('td:first-child').allTextContents();
  expect(new Set(theirKinds)).toEqual(new Set(['Sale']));
  await other.close();
  test
    .info()
    .annotations.push({ type: 'first row from a shared URL', description: `${firstRowMs} ms` });
});

test('scrolling reads the next page from the server, and filters narrow the whole history', async ({
  page,
  servers,
}) => {
  const busiest = servers.contracts.deep[0]!;
  await openIndexed(page, `/contracts/${busiest.address}`);
  await expect(shownStatus(page)).toHaveText(/^100 of [\d,]+ events shown/);
  const cursorPages: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/events?') && request.url().includes('cursor=')) {
      cursorPages.push(request.url());
    }
  });
  // Scrolled again while the next page is still on its way, a slow machine may read
  // more than one: any count past the first page's will do.
  await expect(async () => {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(shownStatus(page)).toHaveText(/^(?!100 of)[\d,]+00 of/, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  expect(cursorPages.length).toBeGreaterThan(0);
  const second = await loadedCount(page);
  const third = await scrollUntilMoreThan(page, second);
  expect(third).toBeGreaterThan(second);
  await expect(shownStatus(page)).toHaveText(/of [\d,]+ events shown/);
  // The newest rows are still the first ones.
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(dataRows(eventsTable(page)).first()).toHaveAttribute('data-index', '0');

  // Kind chips, then a sender or receiver from a row, then a date range.
  await page.getByRole('button', { name: 'Mint', exact: true }).click();
  await expect(page).toHaveURL(/\?kind=mint$/);
  await expect(rows(page).first()).toContainText('Mint');
  await page.getByRole('button', { name: 'Mint', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/contracts/${busiest.address}$`));

  const sale = page.getByRole('button', { name: 'Sale', exact: true });
  await sale.click();
  await expect(sale).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/[?&]kind=sale\b/);
  const kinds = () =>
    rows(page).evaluateAll((all) => all.map((row) => row.querySelector('td')?.textContent?.trim()));
  await expect.poll(async () => [...new Set(await kinds())]).toEqual(['Sale']);
  const transfer = page.getByRole('button', { name: 'Transfer', exact: true });
  await transfer.click();
  await expect(page).toHaveURL(/[?&]kind=transfer%2Csale\b|[?&]kind=transfer,sale\b/);
  // The newest changes of either kind, whichever they are.
  await expect
    .poll(async () => (await kinds()).every((kind) => kind === 'Sale' || kind === 'Transfer'))
    .toBe(true);
  await sale.click();
  await transfer.click();
  await expect(sale).toHaveAttribute('aria-pressed', 'false');
  await expect(page).not.toHaveURL(/kind=/);

  // The filter button beside an address in a row shows only the events with that address.
  const addressButton = rows(page)
    .first()
    .getByRole('link', { name: /^Show only events with 0x/ })
    .first();
  const fromButton = (await addressButton.getAttribute('aria-label'))!.split(' ').at(-1)!;
  await addressButton.click();
  await expect(page).toHaveURL(new RegExp(`[?&]address=${fromButton}\\b`));
  const remove = page.getByRole('button', { name: `Remove the address filter ${fromButton}` });
  await expect(remove).toBeVisible();
  await expect
    .poll(() =>
      rows(page).evaluateAll(
        (all, wanted) =>
          all.every((row) => row.querySelector(`[data-address="${wanted}"]`) !== null),
        fromButton,
      ),
    )
    .toBe(true);
  await remove.click();
  await expect(remove).toBeHidden();
  await expect(page).not.toHaveURL(/address=/);

  // The address box says when what is typed is not an address.
  await page.getByLabel('Sender or receiver').fill('not an address');
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('An address is 0x');

  const address = await rows(page)
    .first()
    .locator('td')
    .nth(3)
    .locator('[data-address]')
    .getAttribute('data-address');
  // Typed without its leading zeros and in capitals, it is the same address.
  await page
    .getByLabel('Sender or receiver')
    .fill(address!.replace(/^0x0+/, '0x').toUpperCase().replace('0X', '0x'));
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`address=${address}`));
  await expect(rows(page).first()).toBeVisible();
  for (const row of await rows(page).all()) {
    await expect(row.locator(`[data-address="${address}"]`).first()).toBeAttached();
  }
  await page.getByRole('button', { name: /^Remove the address filter/ }).click();

  const newest = await rows(page).first().locator('time').getAttribute('datetime');
  const day = newest!.slice(0, 10);
  await page.getByLabel('From', { exact: true }).fill(day);
  await expect(page).toHaveURL(new RegExp(`from=${day}&to=`));
  await expect(rows(page).first()).toBeVisible();
  for (const time of await rows(page)
    .locator('time')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('datetime')!))) {
    expect(time.slice(0, 10)).toBe(day);
  }
});

test('export streams the view’s whole answer, named for it, with the hex id', async ({
  page,
  servers,
}) => {
  const busiest = servers.contracts.deep[1]!;
  await openIndexed(page, `/contracts/${busiest.address}?kind=mint`);
  // The count of the view comes with its series: wait for it to be said.
  await expect(shownStatus(page)).toHaveText(/of [\d,]+ events shown/);
  const total = Number(
    /of ([\d,]+) events shown/
      .exec((await shownStatus(page).textContent()) ?? '')![1]!
      .replace(/,/g, ''),
  );
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`collection-${busiest.address.slice(0, 10)}_mint.csv`);
  const text = readFileSync((await download.path())!, 'utf8');
  const [header, ...lines] = text.trim().split('\r\n');
  const columns = header!.split(',');
  expect(columns).toContain('token_id_hex');
  expect(new Set(columns).size).toBe(columns.length);
  expect(lines.length).toBe(total);
  const kind = columns.indexOf('kind');
  expect(new Set(lines.map((line) => line.split(',')[kind]))).toEqual(new Set(['Mint']));
});

test('leaving flagged sales out: the switch is in the URL, and a reload shows the same figures', async ({
  page,
  servers,
}) => {
  const busiest = servers.contracts.deep[0]!;
  await openIndexed(page, `/contracts/${busiest.address}`);
  const api = `/api/collections/${busiest.address}`;
  const all = (await (await page.request.get(api)).json()) as {
    figures: { sales: number; washSales: number };
  };
  const toggle = page.getByRole('switch', { name: 'Leave flagged sales out' });
  const flagged = new RegExp(`^${all.figures.washSales.toLocaleString('en')} sales? flagged`);
  await expect(page.getByText(flagged)).toBeVisible();
  const sales = page.locator('dt', { hasText: /^Sales$/ }).locator('xpath=following-sibling::dd');
  await expect(sales).toHaveText(all.figures.sales.toLocaleString('en'));

  // The switch shows the URL's state, which the click changes once the router has moved.
  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect(page).toHaveURL(/[?&]wash=exclude(&|$)/);
  const without = all.figures.sales - all.figures.washSales;
  await expect(sales).toHaveText(without.toLocaleString('en'));
  await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
    'href',
    /wash=exclude/,
  );
  await expect(shownStatus(page)).toHaveText(/of [\d,]+ events shown/);
  const status = await shownStatus(page).textContent();

  await page.reload();
  await expect(toggle).toBeChecked();
  await expect(sales).toHaveText(without.toLocaleString('en'));
  await expect(shownStatus(page)).toHaveText(status!);

  // By keyboard, back to every sale.
  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(page).not.toHaveURL(/wash=/);
  await expect(sales).toHaveText(all.figures.sales.toLocaleString('en'));
});

for (const width of WIDTHS) {
  test(`the collection page at ${width} px, light and dark: prices shown, nothing cut or sideways`, async ({
    page,
    servers,
  }) => {
    const busiest = servers.contracts.deep[0]!;
    await page.setViewportSize({ width, height: 900 });
    await openIndexed(page, `/contracts/${busiest.address}?kind=sale`);
    if (width >= 768) {
      await expect(table(page).getByRole('columnheader', { name: /Price/ })).toBeVisible();
    }
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expectLayout(page, `${width} px ${scheme}`);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `collection-${width}-${scheme}`);
    }
  });
}

test('opening a collection moves nothing once drawn (layout shift ≤ 0.05)', async ({
  page,
  servers,
}) => {
  const busiest = servers.contracts.deep[0]!;
  await openIndexed(page, `/contracts/${busiest.address}`);
  await page.setViewportSize({ width: 1440, height: 900 });
  await chartsOpenFromStart(page);
  await page.addInitScript(() => {
    (window as unknown as { shift: number }).shift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
      })[]) {
        if (!entry.hadRecentInput) (window as unknown as { shift: number }).shift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(`/contracts/${busiest.address}`);
  await expect(rows(page).first()).toBeVisible();
  await expect(page.getByRole('slider', { name: /^Bars, one per/ })).toBeVisible();
  await drawnInFull(page);
  const shift = await page.evaluate(() => (window as unknown as { shift: number }).shift);
  expect(shift).toBeLessThanOrEqual(0.05);
});

test('when the service cannot be asked, the page shows what is stored and says why', async ({
  page,
  sample,
  servers,
  consoleWatch,
}) => {
  const contract = servers.contracts.forFaults[0]!;
  await openIndexed(page, `/contracts/${contract.address}`);
  const shown = await rowSignatures(table(page));
  consoleWatch.allowApiFailures(502, 503);
  await sample.setFaults({
    fault: { type: 'status', status: 500 },
    pathIncludes: `/v1/events/${contract.address}`,
  });
  try {
    // The head is read again at most every few seconds, when a page asks.
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole('alert').filter({ hasText: /could not be asked/ })).toBeVisible({
        timeout: 1500,
      });
    }).toPass({ timeout: 25_000 });
    await expect(
      page.getByRole('alert').filter({ hasText: /come from stored data/ }),
    ).toBeVisible();
    await expect(rows(page).first()).toBeVisible();
    expect(await rowSignatures(table(page))).toEqual(shown);
  } finally {
    await sample.setFaults(null);
  }
});

test('our own server failing is said as ours, and Retry brings the rows', async ({
  page,
  servers,
  consoleWatch,
}) => {
  const busiest = servers.contracts.deep[0]!;
  consoleWatch.allowApiFailures(503);
  let failing = true;
  await page.route('**/api/collections/*/events?*limit=100*', (route) =>
    failing
      ? route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({
            error: { kind: 'database', message: 'The dashboard’s database is not answering.' },
          }),
        })
      : route.fallback(),
  );
  await page.goto(`/contracts/${busiest.address}`);
  const alert = page
    .getByRole('main')
    .getByRole('alert')
    .filter({ hasText: /database/ });
  await expect(alert).toBeVisible({ timeout: 20_000 });
  await expect(alert).not.toContainText('Token Events Service failed');
  failing = false;
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(rows(page).first()).toBeVisible();
});
