import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * The line that says how many rows are on screen: "100 of 2,345 events shown", "all 12
 * events shown", "40 events shown · more follow"; a token's "all 5 events loaded".
 */
export const loadStatus = (page: Page): Locator =>
  page
    .getByRole('status')
    .filter({ hasText: /\d[\d,]* (of [\d,]+ )?(events?|contracts?|collections?) (loaded|shown)/ });

export async function loadedCount(page: Page): Promise<number> {
  const text = (await loadStatus(page).textContent()) ?? '';
  const match = /([\d,]+) (?:of [\d,]+ )?(?:events?|contracts?|collections?) (?:loaded|shown)/.exec(
    text,
  );
  if (!match?.[1]) throw new Error(`No loaded count in "${text}"`);
  return Number(match[1].replace(/,/g, ''));
}

export const contractsTable = (page: Page): Locator =>
  page.getByRole('table', { name: /^Collections ranked by/ });
/** The ranking's status line, "all 18 collections · by events, 7 days". */
export const rankingStatus = (page: Page): Locator =>
  page.getByRole('status').filter({ hasText: /collections( loaded)? · by / });
/** The ranking narrowed to one collection by its name, so its row is on screen. */
export const rankingOf = (name: string) => `/contracts?q=${encodeURIComponent(name)}`;
export const eventsTable = (page: Page): Locator =>
  page.getByRole('table', { name: 'Events of this collection' });

/**
 * Rendered data rows (the table is virtualised: about a screenful of them, between spacer
 * rows hidden from assistive technology).
 */
export const dataRows = (table: Locator): Locator =>
  table.locator('tbody tr:not([aria-hidden="true"])');

/**
 * Everything each of the first `count` rendered rows shows, with the full values its
 * titles, addresses and times hold: to compare two renderings of one view. By default only
 * the first few: a virtual table draws as many rows as its place on the screen holds, and
 * that place moves with what stands above the table (a notice, the view's figures).
 */
export const rowSignatures = (table: Locator, count = 2): Promise<string[]> =>
  dataRows(table).evaluateAll(
    (rows, count) =>
      rows.slice(0, count).map((row) =>
        [...row.querySelectorAll('td')]
          .map((cell) => {
            const full = [...cell.querySelectorAll('[title], [data-address], time')].map(
              (node) =>
                node.getAttribute('data-address') ??
                node.getAttribute('datetime') ??
                node.getAttribute('title'),
            );
            return `${cell.textContent?.trim()}${full.length ? ` [${full.join(' ')}]` : ''}`;
          })
          .join(' | '),
      ),
    count,
  );

/** Scrolls to the bottom of the document, as a reader reaching the end of the loaded rows. */
export async function scrollToBottom(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
}

/** Scrolls to the end until more than `count` rows are loaded. */
export async function scrollUntilMoreThan(page: Page, count: number): Promise<number> {
  await expect(async () => {
    await scrollToBottom(page);
    expect(await loadedCount(page)).toBeGreaterThan(count);
  }).toPass({ timeout: 10_000 });
  return loadedCount(page);
}

/** Texts of the given column's cells in the rendered rows, top to bottom. */
export async function columnTexts(table: Locator, column: number): Promise<string[]> {
  return dataRows(table).evaluateAll(
    (rows, index) => rows.map((row) => row.children[index]?.textContent?.trim() ?? ''),
    column,
  );
}

/**
 * A collection's charts shown open from the first paint, as a reader who opened them
 * once finds them (the fold is remembered in this browser's settings).
 */
export async function chartsOpenFromStart(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const key = 'token-activity-settings';
    const stored = JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, unknown>;
    localStorage.setItem(key, JSON.stringify({ ...stored, chartsOpen: true }));
  });
}
