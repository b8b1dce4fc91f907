import type { Page } from '@playwright/test';
import type { TokenPageAnswer } from '../../src/lib/answers';
import { expect, test } from './support/fixtures';
import { expectNoSidewaysScroll, screenshot, seriousViolations, WIDTHS } from './support/layout';
import { dataRows, loadStatus, rowSignatures } from './support/ui';

/*
 * The token page over the query API: one answer for the whole history, a sale's two
 * records one row, the chain of custody. The e2e servers index nothing in the background
 * (INDEX_BACKGROUND_SHARE=0): the token route reads the token's own list itself.
 */
test.describe.configure({ mode: 'parallel' });
// Tall enough for the table (virtualised) to render every row of these histories.
test.use({ viewport: { width: 1280, height: 2400 } });

const history = (page: Page, id: string) =>
  page.getByRole('table', { name: `History of token ${id}, oldest first` });
const custody = (page: Page) =>
  page.getByRole('region', { name: 'Provenance' }).getByRole('listitem');

/** Every request the page makes to the service's raw lists (the page must make none). */
function rawListRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/v1/events/')) seen.push(pathname);
  });
  return seen;
}

/** The token answer as the page receives it. */
async function tokenAnswer(page: Page, contract: string, id: string): Promise<TokenPageAnswer> {
  const response = await page.waitForResponse(
    (r) => new URL(r.url()).pathname === `/api/collections/${contract}/tokens/${id}`,
  );
  return (await response.json()) as TokenPageAnswer;
}

test('decimal and hex URLs show the same rows, and a reload shows them again', async ({
  page,
  servers,
}) => {
  const { contract, id, rows } = servers.longToken;
  const raw = rawListRequests(page);
  const canonical = `/contracts/${contract}/tokens/${id}`;
  await page.goto(canonical);
  await expect(loadStatus(page)).toHaveText(new RegExp(`^all ${rows} events loaded`));
  const shown = await rowSignatures(history(page, id), Infinity);
  expect(shown).toHaveLength(rows);

  const hex = BigInt(id).toString(16);
  const shortUpperContract = `0x${contract.slice(2).replace(/^0+/, '').toUpperCase()}`;
  for (const path of [
    `/contracts/${contract}/tokens/0x${hex}`,
    `/contracts/${contract}/tokens/0x${hex.toUpperCase().padStart(64, '0')}`,
    `/contracts/${shortUpperContract}/tokens/0x${hex}`,
  ]) {
    await page.goto(path);
    await expect(page).toHaveURL(canonical);
    await expect(loadStatus(page)).toHaveText(new RegExp(`^all ${rows} events loaded`));
    expect(await rowSignatures(history(page, id), Infinity)).toEqual(shown);
  }
  // Both ids in the header.
  await expect(page.getByText(`0x${hex.padStart(64, '0')}`)).toBeVisible();
  await page.reload();
  await expect(loadStatus(page)).toHaveText(new RegExp(`^all ${rows} events loaded`));
  expect(await rowSignatures(history(page, id), Infinity)).toEqual(shown);
  expect(raw).toEqual([]);
});

test('a sale is one row with its price; the custody chain tells each owner', async ({
  page,
  servers,
}) => {
  const { contract, id, rows } = servers.longToken;
  const answered = tokenAnswer(page, contract, id);
  await page.goto(`/contracts/${contract}/tokens/${id}`);
  const answer = await answered;
  await expect(loadStatus(page)).toHaveText(new RegExp(`^all ${rows} events loaded`));
  const table = history(page, id);
  const sales = answer.events.filter((event) => event.kind === 'sale');
  expect(sales.length).toBeGreaterThan(0);
  // The deployed service sends each sale twice (its transfer and the sale record): one row.
  expect(sales.every((sale) => sale.records === 'transfer+sale')).toBe(true);
  const saleRows = dataRows(table).filter({
    has: page.getByRole('cell', { name: 'Sale', exact: true }),
  });
  await expect(saleRows).toHaveCount(sales.length);
  for (const text of await saleRows.allInnerTexts()) {
    expect(text).toMatch(/\d[\d.,]* (ETH\*?|STRK|USDC|USDT)|base units|units\?/);
  }
  const transactions = answer.events.map((event) => event.transactionHash);
  expect(new Set(transactions).size).toBe(transactions.length);

  // One step per owner, and one for the holder now (or the burn).
  const steps = custody(page);
  await expect(steps).toHaveCount(answer.custody.length + 1);
  await expect(steps.first()).toContainText('Minted to');
  const bought = answer.custody.filter((step) => step.acquired.how === 'bought').length;
  await expect(steps.filter({ hasText: /Bought by .* for / })).toHaveCount(bought);
  await expect(steps.last()).toContainText(/Held now by|Burned: the token no longer exists/);
  await expect(page.getByText('Distinct owners')).toBeVisible();

  await page.reload();
  await expect(loadStatus(page)).toHaveText(new RegExp(`^all ${rows} events loaded`));
  await expect(saleRows).toHaveCount(sales.length);
  await expect(steps).toHaveCount(answer.custody.length + 1);
});

test('a token page needs no indexed collection: the server reads the token’s own list', async ({
  page,
  servers,
}) => {
  // Tens of thousands of events, which nothing here indexes whole (no background
  // indexing; a token's route reads only the collection's newest page).
  const { contract, id, rows } = servers.unopenedToken;
  const answered = tokenAnswer(page, contract, id);
  await page.goto(`/contracts/${contract}/tokens/${id}`);
  const answer = await answered;
  expect(answer.tokenList).toEqual({ read: true });
  expect(answer.coverage.complete).toBe(false);
  // A small part of the collection's records is stored, yet the history is whole, mint first.
  const collection = servers.contracts.deep.find((deep) => deep.address === contract)!;
  expect(answer.coverage.records).toBeLessThan(collection.eventCount / 10);
  expect(answer.events[0]!.kind).toBe('mint');
  await expect(loadStatus(page)).toHaveText(`all ${rows} events loaded`);
  await expect(page.getByText('the token’s whole history, read from its own list')).toBeVisible();
  await expect(dataRows(history(page, id))).toHaveCount(rows);
  await expect(dataRows(history(page, id)).first()).toContainText('Mint');
  await expect(custody(page).first()).toContainText('Minted to');
});

test('when the service cannot be asked, the page says the history comes from stored data, and why', async ({
  page,
  request,
  sample,
  servers,
}) => {
  const contract = servers.contracts.deep[0]!.address;
  // A token of the collection's newest page (which the token route stores as it answers),
  // other than the ones other tests open.
  const newest = await request.get(`${servers.sampleUrl}/v1/events/${contract}?limit=20`, {
    headers: { 'x-api-key': servers.apiKey },
  });
  const { result } = (await newest.json()) as { result: { token_id?: string }[] };
  const id = result
    .map((record) => (record.token_id ? BigInt(record.token_id).toString() : ''))
    .find((token) => token && token !== servers.token.id && token !== servers.longToken.id)!;
  // Any answer about the collection reads its head: wait until it is stored.
  await expect(async () => {
    const answer = await request.get(`/api/collections/${contract}/tokens/${servers.token.id}`);
    expect(((await answer.json()) as TokenPageAnswer).coverage.headReadAt).not.toBeNull();
  }).toPass({ timeout: 15_000 });
  await sample.setFaults({
    fault: { type: 'status', status: 500, message: 'down for the test' },
    pathIncludes: `/v1/events/${contract}/${id}`,
    times: 1_000,
  });
  await page.goto(`/contracts/${contract}/tokens/${id}`);
  const statement = page
    .getByRole('status')
    .filter({ hasText: 'This history comes from stored data' });
  await expect(statement).toBeVisible({ timeout: 15_000 });
  await expect(statement).toContainText('could not be read');
  await expect(statement).toContainText(
    /stored\. (The whole history is indexed|Indexed back to|Nothing)/,
  );
  await expect(loadStatus(page)).toHaveCount(0);
  await expect(dataRows(history(page, id)).first()).toBeVisible();
  await expect(custody(page).last()).toContainText('(from stored data)');
  await page.setViewportSize({ width: 390, height: 1400 });
  await screenshot(page, 'token-stored-390-light', { fullPage: true });
});

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true, viewport: { width: 390, height: 844 } });

  test('every link and button of the token page is a finger’s size', async ({ page, servers }) => {
    const { contract, id } = servers.longToken;
    await page.goto(`/contracts/${contract}/tokens/${id}`);
    await expect(loadStatus(page)).toHaveText(/^all/);
    // The whole page, not only the first screen: the collection's name in the header was a
    // line of text tall (22 px).
    const small = await page.getByRole('main').evaluate((main) =>
      [
        ...main.querySelectorAll<HTMLElement>(
          'a[href], button, input, select, [role="slider"], [tabindex="0"]',
        ),
      ]
        .filter((element) => {
          const box = element.getBoundingClientRect();
          if (box.width === 0 || getComputedStyle(element).visibility === 'hidden') return false;
          return box.height < 44 || box.width < 44;
        })
        .map((element) => {
          const box = element.getBoundingClientRect();
          const name = element.getAttribute('aria-label') ?? element.textContent ?? '';
          return `${element.tagName} "${name.trim().slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`;
        }),
    );
    expect(small, 'controls smaller than 44 px').toEqual([]);
  });
});

test('screenshots at four widths, light and dark; no sideways scroll, axe clean', async ({
  page,
  servers,
}) => {
  test.setTimeout(90_000);
  const { contract, id, rows } = servers.longToken;
  await page.goto(`/contracts/${contract}/tokens/${id}`);
  await expect(loadStatus(page)).toHaveText(new RegExp(`^all ${rows} events loaded`));
  for (const width of WIDTHS) {
    for (const scheme of ['light', 'dark'] as const) {
      // Tall enough that the table (virtualised) renders every row in the full-page shot.
      await page.setViewportSize({ width, height: 2400 });
      await page.emulateMedia({ colorScheme: scheme });
      await expect(custody(page).last()).toBeVisible();
      await expectNoSidewaysScroll(page, `token page at ${width} px, ${scheme}`);
      await screenshot(page, `token-${width}-${scheme}`, { fullPage: true });
      if (width === 390 || width === 1440) {
        expect.soft(await seriousViolations(page), `axe at ${width} px, ${scheme}`).toEqual([]);
      }
    }
  }
});
