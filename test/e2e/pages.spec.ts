import { expect, test } from './support/fixtures';
import {
  expectNoSidewaysScroll,
  expectRowsFitTheirHeight,
  screenshot,
  seriousViolations,
} from './support/layout';
import { APP_PAGES } from './support/pages';

/*
 * Each page once per test, in light and dark: axe finds no serious or critical violation,
 * screenshots at desktop and phone width go to test/e2e/artifacts/screenshots/, the page
 * does not scroll sideways on a phone, and table rows keep their heights.
 */
test.describe.configure({ mode: 'parallel' });

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

for (const appPage of APP_PAGES) {
  test(`${appPage.name} page: accessible in light and dark; screenshots`, async ({
    page,
    servers,
  }) => {
    const shot = (variant: string) => screenshot(page, `${appPage.name}-${variant}`);
    await page.setViewportSize(DESKTOP);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(appPage.path(servers));
    await appPage.ready(page, servers);
    await shot('desktop');
    await expectRowsFitTheirHeight(page, false);
    expect.soft(await seriousViolations(page), 'axe, light').toEqual([]);

    await page.emulateMedia({ colorScheme: 'dark' });
    await shot('desktop-dark');
    expect.soft(await seriousViolations(page), 'axe, dark').toEqual([]);

    await page.setViewportSize(PHONE);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate(() => window.scrollTo(0, 0));
    await appPage.ready(page, servers);
    await shot('phone');
    await expectNoSidewaysScroll(page, `${appPage.name} at 390 px`);
    await expectRowsFitTheirHeight(page, true);
  });
}
