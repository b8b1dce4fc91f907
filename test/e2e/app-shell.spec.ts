import { join } from 'node:path';
import { test as base, expect, type Page, type Route } from '@playwright/test';
import { readServers, SCREENSHOTS_DIR, type Profile, type ProfileServers } from './support/servers';
import { eventsTable, dataRows, contractsTable } from './support/ui';

/*
 * The app's shell: what shows before the code arrives, when a page's code cannot be had
 * (offline, or renamed by a deploy), the lookup box on a collection's pages and the keys
 * dialog. Screenshots: test/e2e/artifacts/screenshots/app-shell-*.png.
 *
 * These tests make the browser fail on purpose (offline, refused files), so they keep
 * their own watch of the console instead of the shared one: uncaught errors fail them,
 * and so does any console error but the browser's own log of a file it could not load.
 */
const test = base.extend<{ servers: ProfileServers; console: void }>({
  // Playwright reads the fixtures a function needs from its first parameter's pattern.
  // eslint-disable-next-line no-empty-pattern
  servers: async ({}, use, testInfo) => {
    await use(readServers()[testInfo.project.name as Profile]);
  },
  console: [
    async ({ context }, use) => {
      const errors: string[] = [];
      context.on('console', (message) => {
        if (!['error', 'warning', 'assert'].includes(message.type())) return;
        if (/^Failed to load resource/.test(message.text())) return;
        errors.push(`console.${message.type()}: ${message.text()}`);
      });
      context.on('weberror', (error) => errors.push(`uncaught: ${error.error().message}`));
      await use();
      expect(errors, 'errors and warnings in the browser console').toEqual([]);
    },
    { auto: true },
  ],
});

test.describe.configure({ mode: 'parallel' });

const WIDTHS = [390, 768, 1024, 1440];
const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const lookup = (page: Page) => page.getByRole('textbox', { name: /^Go to a contract/ });
const pageChunk = /\/assets\/contract-events-page-[^/]*\.js$/;

/** Screenshots of what is on screen at each width, light and dark. */
async function screenshots(page: Page, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({
        path: join(SCREENSHOTS_DIR, `app-shell-${name}-${width}-${colorScheme}.png`),
      });
    }
  }
  await page.emulateMedia({ colorScheme: null });
}

/** Opens the contract list, with its code and its first page loaded. */
async function openContracts(page: Page): Promise<void> {
  await page.goto('/contracts');
  await expect(dataRows(contractsTable(page)).first()).toBeVisible();
}

/** The lookup box opens `address` (its page's code not loaded yet in this tab). */
async function lookUp(page: Page, text: string): Promise<void> {
  await lookup(page).fill(text);
  await lookup(page).press('Enter');
}

test('offline: says the connection is gone, and a page that could not open opens by itself when back', async ({
  page,
  context,
  servers,
}) => {
  const busiest = servers.contracts.deep[0]!;
  await openContracts(page);
  await context.setOffline(true);
  await lookUp(page, busiest.address);

  await expect(
    page.getByRole('main').getByRole('status').filter({ hasText: 'connection is gone' }),
  ).toHaveText(
    'The connection is gone. What is shown stays; the dashboard carries on by itself when the connection is back.',
  );
  const alert = page.getByRole('main').getByRole('alert');
  await expect(alert.getByRole('heading')).toHaveText('This page could not be loaded');
  await expect(alert).toContainText('without a connection');
  await expect(alert).toContainText('It opens by itself when the connection is back.');
  await expect(page).toHaveTitle('This page could not be loaded');
  await expect(page).toHaveURL(`/contracts/${busiest.address}`);
  // The header is the app's, and works: the contract list's code is here already.
  await expect(alert.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(lookup(page)).toBeEditable();
  await screenshots(page, 'offline');
  await page.setViewportSize({ width: 1280, height: 800 });

  await context.setOffline(false);
  await expect(heading(page)).toContainText(busiest.name);
  await expect(page.getByText('The connection is gone.')).toHaveCount(0);
  await expect(dataRows(eventsTable(page)).first()).toBeVisible();
});

test('a page’s code that fails once is fetched again, without a reload', async ({
  page,
  servers,
}) => {
  const busiest = servers.contracts.deep[0]!;
  let refused = 0;
  await page.route(pageChunk, (route: Route) => {
    if (refused > 0) return route.continue();
    refused += 1;
    return route.abort('connectionreset');
  });
  await openContracts(page);
  await page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));
  await lookUp(page, busiest.address);
  await expect(heading(page)).toContainText(busiest.name);
  expect(refused).toBe(1);
  expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
});

test('a page’s code renamed by a deploy: one reload, then the error screen with Retry', async ({
  page,
  servers,
}) => {
  const busiest = servers.contracts.deep[0]!;
  let documents = 0;
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents += 1;
  });
  // As after a deploy: the names this tab knows are gone from the server.
  const gone = (route: Route) => route.fulfill({ status: 404, body: 'Not found' });
  await page.route(pageChunk, gone);
  await openContracts(page);
  await lookUp(page, busiest.address);

  const alert = page.getByRole('main').getByRole('alert');
  await expect(alert.getByRole('heading')).toHaveText('This page could not be loaded');
  await expect(alert).toContainText('a new version of the dashboard replaced it');
  // The first visit and one reload to get the new names; no more.
  expect(documents).toBe(2);
  await expect(page).toHaveURL(`/contracts/${busiest.address}`);
  await expect(
    page.getByRole('banner').getByRole('link', { name: 'Token activity' }),
  ).toBeVisible();
  await screenshots(page, 'error');
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(documents).toBe(2);

  // The files are back: Retry opens the page, and the next deploy may reload again.
  await page.unroute(pageChunk, gone);
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(heading(page)).toContainText(busiest.name);
  expect(documents).toBe(3);
  expect(await page.evaluate(() => sessionStorage.getItem('page-code-reloaded'))).toBeNull();
});

test('on a slow network the header and rows to come show at once, and nothing moves', async ({
  page,
}) => {
  for (const [width, colorScheme] of [
    [390, 'light'],
    [1440, 'dark'],
  ] as const) {
    // The code waits until the shell has been looked at.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/*.js', async (route) => {
      await released;
      await route.continue();
    });
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme });
    await page.goto('/contracts', { waitUntil: 'commit' });
    const shell = page.locator('.shell-header');
    await expect(shell).toBeVisible();
    await expect(shell.getByRole('link', { name: 'Token activity' })).toBeVisible();
    await expect(page.locator('.shell-row').first()).toBeVisible();
    const before = await boxes(page);
    if (width === 390) await screenshots(page, 'shell');

    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme });
    release();
    await expect(page.getByRole('search')).toBeVisible();
    await expect(shell).toHaveCount(0);
    expect(await boxes(page), `${width} px, ${colorScheme}`).toEqual(before);
    await page.unrouteAll();
  }
});

/** Where the header and the page's content lie, and the header's colour. */
function boxes(page: Page) {
  return page.evaluate(() => {
    const header = document.querySelector('#root header')!;
    const main = document.querySelector('#root main')!;
    const box = header.getBoundingClientRect();
    return {
      header: { top: box.top, height: box.height, width: box.width },
      mainTop: main.getBoundingClientRect().top,
      background: getComputedStyle(header).backgroundColor,
      border: getComputedStyle(header).borderBottomColor,
    };
  });
}

test('the lookup box on a collection’s pages opens a token of that collection', async ({
  page,
  servers,
}) => {
  const { contract, id } = servers.token;
  await page.goto(`/contracts/${contract}`);
  await expect(dataRows(eventsTable(page)).first()).toBeVisible();
  await expect(lookup(page)).toHaveAttribute('placeholder', /^Token id/);
  await lookUp(page, id);
  await expect(page).toHaveURL(`/contracts/${contract}/tokens/${id}`);
  await expect(heading(page)).toHaveText(`Token ${id}`);

  // On a token's page too.
  await lookUp(page, '#1');
  await expect(page).toHaveURL(`/contracts/${contract}/tokens/1`);

  // An explorer's link to the token.
  const short = contract.replace(/^0x0+/, '0x');
  await lookUp(page, `https://voyager.online/nft/${short}/${id}`);
  await expect(page).toHaveURL(`/contracts/${contract}/tokens/${id}`);
  await lookUp(page, `https://sepolia.starkscan.co/nft-contract/${short}`);
  await expect(page).toHaveURL(`/contracts/${contract}`);

  const answer = page.getByRole('search').getByRole('alert');
  // A transaction's link is asked of the server: this hash is none it has seen.
  await lookUp(page, `https://voyager.online/tx/0x${'7'.repeat(60)}`);
  await expect(answer).toContainText('is not known: no collection the service lists');
  await lookUp(page, '9'.repeat(90));
  await expect(answer).toContainText('This token id is too large');
  await expect(page).toHaveURL(`/contracts/${contract}`);
});

test('the keys dialog: keys and what they do in two aligned columns at every width', async ({
  page,
}) => {
  await openContracts(page);
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      await page.keyboard.press('?');
      await expect(dialog).toBeVisible();
      const cells = await dialog.locator('dt, dd').evaluateAll((nodes) =>
        nodes.map((node) => {
          const { left, right, top, bottom } = node.getBoundingClientRect();
          return { tag: node.tagName, left, right, top, bottom };
        }),
      );
      const keys = cells.filter((cell) => cell.tag === 'DT');
      const meanings = cells.filter((cell) => cell.tag === 'DD');
      expect(keys.length).toBe(5);
      expect(meanings.length).toBe(5);
      const where = `${width} px`;
      // One left edge for each column, the second right of the widest key.
      expect(new Set(keys.map((key) => key.left)).size, where).toBe(1);
      expect(new Set(meanings.map((meaning) => meaning.left)).size, where).toBe(1);
      expect(meanings[0]!.left, where).toBeGreaterThan(Math.max(...keys.map((key) => key.right)));
      // Each key on the line of what it does, each row below the one before.
      keys.forEach((key, row) => {
        const meaning = meanings[row]!;
        expect(key.top, where).toBeLessThan(meaning.bottom);
        expect(meaning.top, where).toBeLessThan(key.bottom);
        if (row > 0) expect(key.top, where).toBeGreaterThanOrEqual(meanings[row - 1]!.bottom);
      });
      // Nothing sticks out of the dialog.
      const box = (await dialog.boundingBox())!;
      for (const cell of cells) expect(cell.right, where).toBeLessThanOrEqual(box.x + box.width);
      await page.screenshot({
        path: join(SCREENSHOTS_DIR, `app-shell-keys-${width}-${colorScheme}.png`),
      });
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }
  }
});
