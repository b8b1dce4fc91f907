import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { WIDTHS } from './support/layout';
import { drawnInFull } from './support/pages';
import { dataRows, eventsTable } from './support/ui';

/*
 * The flagged-sale badge ("wash?", beside the price) at every width, light and dark: the
 * badge and the price each whole in their cell, not clipped to a sliver.
 *
 * The browser tests' sample (seed 1) has no sale the wash rules flag, and the sample
 * service makes no wash pattern; a seed that had some would change what every other
 * browser test counts. So the server's own answers for the collection's sales are
 * served as the flagged sales' list (`wash=only`), each sale with a reason, as the index
 * gives one: real rows, prices and cursors, laid out by the app as shipped.
 */
const REASON = 'The buyer is also the seller.';

/** Answers `wash=only` with the collection's sales, each flagged. */
async function flagEverySale(page: Page, contract: string) {
  await page.route(`**/api/collections/${contract}/events?*`, async (route) => {
    const url = new URL(route.request().url());
    if (url.searchParams.get('wash') !== 'only') return route.continue();
    url.searchParams.delete('wash');
    url.searchParams.set('kind', 'sale');
    const response = await route.fetch({ url: url.toString() });
    const body = (await response.json()) as { events: { kind: string; washFlags?: string[] }[] };
    for (const event of body.events) if (event.kind === 'sale') event.washFlags = [REASON];
    await route.fulfill({ response, json: body });
  });
}

/**
 * Where `inner` is cut: its cell scrolls sideways, or its box leaves the box of the cell
 * or of an element between them that clips what overflows it. Empty when whole.
 */
function clipped(inner: Locator): Promise<string[]> {
  return inner.evaluate((element) => {
    const cell = element.closest('td');
    if (!cell) return ['not in a cell'];
    const box = element.getBoundingClientRect();
    const problems: string[] = [];
    if (box.width < 1) problems.push(`${box.width}px wide`);
    if (cell.scrollWidth > cell.clientWidth) {
      problems.push(`cell scrolls: ${cell.scrollWidth} > ${cell.clientWidth}`);
    }
    for (let around = element.parentElement; around; around = around.parentElement) {
      const clips = getComputedStyle(around).overflowX !== 'visible' || around === cell;
      const outer = around.getBoundingClientRect();
      const inside =
        box.left >= outer.left - 0.5 &&
        box.right <= outer.right + 0.5 &&
        box.top >= outer.top - 0.5 &&
        box.bottom <= outer.bottom + 0.5;
      if (clips && !inside) {
        problems.push(
          `${Math.round(box.left)}–${Math.round(box.right)} outside ${around.tagName.toLowerCase()}.${around.className} ${Math.round(outer.left)}–${Math.round(outer.right)}`,
        );
      }
      if (around === cell) break;
    }
    return problems;
  });
}

for (const width of WIDTHS) {
  test(`flagged sales at ${width} px, light and dark: the badge and the price whole in their cell`, async ({
    page,
    servers,
  }) => {
    // The first visit reads the collection's whole history.
    test.setTimeout(180_000);
    const contract = servers.contracts.deep[0]!.address;
    await flagEverySale(page, contract);
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/contracts/${contract}?wash=only`);
    // A bound on a hang, not a wait: a busy machine reads a deep history slowly.
    await expect(page.getByText(/Whole history indexed/)).toBeVisible({ timeout: 150_000 });
    const rows = dataRows(eventsTable(page));
    await expect(rows.first()).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await drawnInFull(page);
      const count = Math.min(await rows.count(), 8);
      expect(count, 'rows drawn').toBeGreaterThan(0);
      for (let index = 0; index < count; index += 1) {
        const row = rows.nth(index);
        const badge = row.getByText('wash?', { exact: true });
        const price = badge.locator('xpath=ancestor::td').locator('span[title]').first();
        await expect(badge).toBeVisible();
        await expect(price).toHaveText(/\d/);
        const where = `row ${index + 1} at ${width} px, ${scheme}`;
        expect(await clipped(badge), `badge, ${where}`).toEqual([]);
        expect(await clipped(price), `price, ${where}`).toEqual([]);
      }
    }
  });
}
