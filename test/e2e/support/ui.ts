import type { Locator, Page, Response } from '@playwright/test';
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
  page.getByRole('table', { name: 'Token contracts' });
export const eventsTable = (page: Page): Locator =>
  page.getByRole('table', { name: 'Events of this collection' });

/**
 * Rendered data rows (the table is virtualised: about a screenful of them, between spacer
 * rows hidden from assistive technology).
 */
export const dataRows = (table: Locator): Locator =>
  table.locator('tbody tr:not([aria-hidden="true"])');

/**
 * The status line once the page has stopped reading: not "loading more", and unchanged
 * for half a second. A filter's scan and the table's "near the end" each read on by
 * themselves, one after the other, so one moment without "loading more" is not the end.
 */
export async function settledStatus(page: Page): Promise<string> {
  let text = '';
  await expect(async () => {
    text = (await loadStatus(page).textContent()) ?? '';
    expect(text).not.toContain('loading more');
    await page.waitForTimeout(500);
    expect(await loadStatus(page).textContent()).toBe(text);
  }).toPass({ timeout: 15_000 });
  return text;
}

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
 * Every successful page of an API list the browser receives, by URL, so a test can tell
 * how many records arrived and whether any arrived in two pages. A URL fetched twice (the
 * first page also serves the "new events" poll) counts once.
 */
export function recordPages(page: Page, path: string) {
  const bodies = new Map<string, Promise<unknown>>();
  const onResponse = (response: Response) => {
    const url = new URL(response.url());
    if (url.pathname !== path || response.status() !== 200) return;
    bodies.set(
      url.pathname + url.search,
      response.json().catch(() => null),
    );
  };
  page.on('response', onResponse);
  return {
    /**
     * Records received over all pages, how many of them were distinct, and how many
     * changes of hands they make: a sale's record and its transfer twin (same transaction
     * and token) are one.
     */
    async records(): Promise<{ total: number; distinct: number; changes: number }> {
      const pages = await Promise.all(bodies.values());
      const records = pages.flatMap((body) => {
        const result = (body as { result?: Record<string, unknown>[] } | null)?.result;
        return Array.isArray(result) ? result : [];
      });
      const distinct = new Map(records.map((record) => [JSON.stringify(record), record]));
      const twinOf = (record: Record<string, unknown>) =>
        `${String(record.transaction_hash)}:${String(record.token_id)}`;
      const transfers = new Set(
        [...distinct.values()].filter((record) => record.event_type === 'transfer').map(twinOf),
      );
      const joined = [...distinct.values()].filter(
        (record) => record.event_type === 'sale' && transfers.has(twinOf(record)),
      ).length;
      return { total: records.length, distinct: distinct.size, changes: distinct.size - joined };
    },
    stop: () => page.off('response', onResponse),
  };
}

/** Rendered rows are all different (the same event shown twice would repeat its cells and links). */
export async function expectRenderedRowsDistinct(table: Locator): Promise<void> {
  const rows = await dataRows(table).evaluateAll((elements) =>
    elements.map(
      (row) =>
        [...row.querySelectorAll('[title], [data-address], time')]
          .map(
            (node) =>
              node.getAttribute('title') ??
              node.getAttribute('data-address') ??
              node.getAttribute('datetime'),
          )
          .join('|') + row.textContent,
    ),
  );
  expect(rows.length).toBeGreaterThan(0);
  expect(new Set(rows).size, 'distinct rendered rows').toBe(rows.length);
}

/**
 * From now on the newest page of the contract's events carries two events the list has
 * not seen (copies of its newest, a minute and two later), as the "N new events" poll
 * will find them.
 */
export async function offerTwoNewEvents(page: Page, contract: string): Promise<void> {
  await page.route(
    (url) => url.pathname === `/api/v1/events/${contract}` && !url.searchParams.has('cursor'),
    async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { result: Array<Record<string, unknown>> };
      const [newest] = body.result;
      const fresh = [2, 1].map((n) => ({
        ...newest,
        event_id: `0x${'f'.repeat(63)}${n}`,
        transaction_hash: `0x${'e'.repeat(63)}${n}`,
        timestamp: String(Number(newest!.timestamp) + 60 * n),
      }));
      await route.fulfill({ response, json: { ...body, result: [...fresh, ...body.result] } });
    },
  );
}
