import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { APP_PAGES, imagesInViewDecoded } from './support/pages';
import { SCREENSHOTS_DIR } from './support/servers';

/*
 * Each page once per test, in light and dark: axe finds no serious or critical violation,
 * screenshots at desktop and phone width go to test/e2e/artifacts/screenshots/, the page
 * does not scroll sideways on a phone, and table rows keep their heights.
 * Both profiles render the same components (the client normalises the data first), so axe,
 * the slowest check here, runs in the deployed project only; screenshots come from both.
 */
const AXE_PROJECT = 'deployed';
test.describe.configure({ mode: 'parallel' });

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Serious and critical violations, one readable line per element. */
async function seriousViolations(page: Page): Promise<string[]> {
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

/**
 * Every rendered row is as tall as the height the table gives it (the virtualiser counts on
 * it), and on a phone every card's content fits inside it: the CSS fits the row heights
 * set in TypeScript (DataTable's ROW_HEIGHT and CARD_HEIGHT, or the page's own).
 */
async function expectRowsFitTheirHeight(page: Page, phone: boolean) {
  const rows = await page.locator('tbody tr:not([aria-hidden="true"])').evaluateAll((elements) =>
    elements.map((row) => ({
      set: parseFloat((row as HTMLElement).style.height),
      drawn: row.getBoundingClientRect().height,
      content: row.scrollHeight,
      inside: row.clientHeight,
    })),
  );
  for (const row of rows) {
    expect(row.drawn, 'row height').toBeCloseTo(row.set, 0);
    if (phone) expect(row.content, 'card content height').toBeLessThanOrEqual(row.inside);
  }
}

async function expectNoSidewaysScroll(page: Page) {
  const width = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(width.scroll, 'page width at 390 px').toBeLessThanOrEqual(width.client);
}

for (const appPage of APP_PAGES) {
  test(`${appPage.name} page: accessible in light and dark; screenshots`, async ({
    page,
    servers,
  }, testInfo) => {
    const axe = testInfo.project.name === AXE_PROJECT;
    const shot = async (variant: string) => {
      await imagesInViewDecoded(page);
      await page.screenshot({
        path: join(SCREENSHOTS_DIR, `${testInfo.project.name}-${appPage.name}-${variant}.png`),
        animations: 'disabled',
        caret: 'hide',
      });
    };
    await page.setViewportSize(DESKTOP);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(appPage.path(servers));
    await appPage.ready(page, servers);
    await shot('desktop');
    await expectRowsFitTheirHeight(page, false);
    if (axe) expect.soft(await seriousViolations(page), 'axe, light').toEqual([]);

    await page.emulateMedia({ colorScheme: 'dark' });
    await shot('desktop-dark');
    if (axe) expect.soft(await seriousViolations(page), 'axe, dark').toEqual([]);

    await page.setViewportSize(PHONE);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate(() => window.scrollTo(0, 0));
    await appPage.ready(page, servers);
    await shot('phone');
    await expectNoSidewaysScroll(page);
    await expectRowsFitTheirHeight(page, true);
  });
}
