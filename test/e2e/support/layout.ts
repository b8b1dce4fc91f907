import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { imagesInViewDecoded } from './pages';
import { SCREENSHOTS_DIR } from './servers';

/** The widths every page is drawn at: a phone, a tablet, a laptop, a large screen. */
export const WIDTHS = [390, 768, 1024, 1440];
/** The widest window whose tables show each row as a card. */
export const PHONE_WIDTH = 720;

/**
 * What must hold on every page at every width: no sideways scroll, readable columns, and
 * rows (when there are any) as tall as the virtualiser counts them.
 */
export async function expectLayout(page: Page, where: string): Promise<void> {
  await expectNoSidewaysScroll(page, where);
  await expectReadableColumns(page, where);
  const width = page.viewportSize()?.width ?? 0;
  if (await page.locator('tbody tr:not([aria-hidden="true"])').count()) {
    await expectRowsFitTheirHeight(page, width <= PHONE_WIDTH);
  }
}

/**
 * A screenshot, `name.png` in the screenshots folder, once the images in view are drawn;
 * `fullPage` takes the whole page rather than the window.
 */
export async function screenshot(page: Page, name: string, { fullPage = false } = {}) {
  await imagesInViewDecoded(page);
  await page.screenshot({
    path: join(SCREENSHOTS_DIR, `${name}.png`),
    fullPage,
    animations: 'disabled',
    caret: 'hide',
  });
}

/** Serious and critical axe violations, one readable line per element. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${violation.id} (${violation.impact}) ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s+/g, ' ')}`,
      ),
    );
}

/** The page is no wider than the window: nothing to scroll sideways to. */
export async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const width = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(width.scroll, `page width, ${where}`).toBeLessThanOrEqual(width.client);
}

/**
 * Every shown column of every table is readable: each header and each rendered cell shows
 * its content whole (nothing cut off or spilling over its edge), and no column is narrower
 * than a short word.
 */
export async function expectReadableColumns(page: Page, where: string): Promise<void> {
  const problems = await page.evaluate(() => {
    const found: string[] = [];
    const cells = document.querySelectorAll<HTMLElement>(
      'table thead th, table tbody tr:not([aria-hidden="true"]) td',
    );
    for (const cell of cells) {
      const box = cell.getBoundingClientRect();
      if (box.width === 0 || box.bottom < 0 || box.top > window.innerHeight) continue;
      const label = `${cell.tagName} "${cell.textContent?.trim().slice(0, 30)}"`;
      // The laid-out extent of the cell's content against its content box: an overflow of
      // a fraction of a pixel already ends the text in "…".
      const range = document.createRange();
      range.selectNodeContents(cell);
      const content = range.getBoundingClientRect();
      const style = getComputedStyle(cell);
      const inner = {
        left: box.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft),
        right: box.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight),
      };
      if (
        content.width > 0 &&
        (content.left < inner.left - 0.5 || content.right > inner.right + 0.5)
      ) {
        found.push(
          `${label}: content ${content.width.toFixed(1)} px in ${(inner.right - inner.left).toFixed(1)} px`,
        );
      }
      const inTable = getComputedStyle(cell).display === 'table-cell';
      if (cell.tagName === 'TH' && inTable && box.width < 60) {
        found.push(`${label}: ${box.width} px wide`);
      }
      // What a cell shows with an ellipsis is cut too.
      for (const inner of cell.querySelectorAll<HTMLElement>('*')) {
        const style = getComputedStyle(inner);
        if (style.textOverflow === 'ellipsis' && inner.scrollWidth > inner.clientWidth + 1) {
          found.push(`${label}: "${inner.textContent?.slice(0, 30)}" cut short`);
        }
      }
    }
    return found;
  });
  expect(problems, `readable columns, ${where}`).toEqual([]);
}

/**
 * Rows are as tall as the virtualiser counts them: a table row as tall as its set height,
 * a phone's card as tall as its content (no blank below it, nothing outside it).
 */
export async function expectRowsFitTheirHeight(page: Page, phone: boolean): Promise<void> {
  const rows = await page.locator('tbody tr:not([aria-hidden="true"])').evaluateAll((elements) =>
    elements.map((row) => {
      const box = row.getBoundingClientRect();
      const style = getComputedStyle(row);
      const cells = [...row.children].map((cell) => cell.getBoundingClientRect());
      return {
        set: (row as HTMLElement).style.height,
        drawn: box.height,
        content: row.scrollHeight,
        inside: row.clientHeight,
        // From the card's top edge to its first line, and from its last line to its bottom.
        above: Math.min(...cells.map((cell) => cell.top)) - box.top - parseFloat(style.paddingTop),
        below:
          box.bottom -
          Math.max(...cells.map((cell) => cell.bottom)) -
          parseFloat(style.paddingBottom) -
          parseFloat(style.borderBottomWidth),
      };
    }),
  );
  for (const row of rows) {
    if (!phone) {
      expect(row.drawn, 'row height').toBeCloseTo(parseFloat(row.set), 0);
      continue;
    }
    expect(row.set, 'a card has no set height: it is measured').toBe('');
    expect(row.content, 'card content height').toBeLessThanOrEqual(row.inside);
    expect(Math.abs(row.above), 'blank above a card’s first line').toBeLessThanOrEqual(2);
    expect(Math.abs(row.below), 'blank below a card’s last line').toBeLessThanOrEqual(2);
  }
}

/**
 * Every control in view is at least 44 px each way, as a finger needs; links inside
 * sentences are left out, as WCAG leaves them (their line is their size), and a box or
 * switch is as large as its label, which a finger presses as well.
 */
export async function expectTapTargets(page: Page, where: string): Promise<void> {
  const small = await page.evaluate(() =>
    [
      ...document.querySelectorAll<HTMLElement>(
        'a[href], button, input, select, [role="slider"], [tabindex="0"]',
      ),
    ]
      .map((element) =>
        element instanceof HTMLInputElement &&
        (element.type === 'checkbox' || element.type === 'radio') &&
        element.labels?.[0]
          ? element.labels[0]
          : element,
      )
      .filter((element) => {
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.bottom < 0 || box.top > window.innerHeight) return false;
        if (box.right < 0 || getComputedStyle(element).visibility === 'hidden') return false;
        if (element.closest('p, footer, li > div > p')) return false;
        return box.height < 44 || box.width < 44;
      })
      .map((element) => {
        const box = element.getBoundingClientRect();
        const name = element.getAttribute('aria-label') ?? element.textContent ?? '';
        return `${element.tagName} "${name.trim().slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`;
      }),
  );
  expect(small, `controls smaller than 44 px, ${where}`).toEqual([]);
}

/**
 * The page in light and dark: nothing to scroll sideways, every column readable, no serious
 * axe violation; a screenshot of each (`name-width-scheme.png`).
 */
export async function expectLayoutInBothSchemes(
  page: Page,
  name: string,
  width: number,
  fullPage = false,
): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoSidewaysScroll(page, `${width} px ${scheme}`);
    await expectReadableColumns(page, `${width} px ${scheme}`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `${name}-${width}-${scheme}`, { fullPage });
  }
}

/** Opens a collection's page once its whole history is indexed (the first visit starts it). */
export async function openWhenIndexed(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByText(/Whole history indexed/)).toBeVisible({ timeout: 40_000 });
  await page.reload();
  await expect(page.getByText(/Whole history indexed/)).toBeVisible();
}

/**
 * The layout tests of a collection's subpage (`/contracts/:address/${page}`), one per
 * width: `open` opens it
 * once its history is indexed, `drawn` is what shows it is drawn in full.
 */
export function subpageLayoutTests(
  subpage: 'holders' | 'market',
  open: (page: Page, path: string) => Promise<void>,
  drawn: (page: Page) => Locator,
  { fullPage = false } = {},
): void {
  for (const width of WIDTHS) {
    test(`the ${subpage} page at ${width} px, light and dark: nothing cut or sideways`, async ({
      page,
      servers,
    }) => {
      test.setTimeout(60_000);
      const collection = servers.contracts.deep[1]!;
      await page.setViewportSize({ width, height: 900 });
      await open(page, `/contracts/${collection.address}/${subpage}`);
      await expect(drawn(page)).toBeVisible();
      await expectLayoutInBothSchemes(page, subpage, width, fullPage);
    });
  }
}
