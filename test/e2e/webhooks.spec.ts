import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { expectNoSidewaysScroll, screenshot, seriousViolations, WIDTHS } from './support/layout';
import { SCREENSHOTS_DIR, WEBHOOK_TOKEN } from './support/servers';

/*
 * The webhooks page in Chromium against the production server with WEBHOOK_TOKEN set: a
 * token page's "Get a webhook for this view" link, the token given, a webhook made for
 * that view, listed, deleted; the page at every width in both themes (screenshots:
 * test/e2e/artifacts/screenshots/webhooks-*).
 */
test.describe.configure({ mode: 'parallel' });

// An address literal: nothing to resolve, and public. No delivery is due in these tests
// (the e2e servers read no new events), so nothing is posted to it.
const receiver = (name: string) => `https://93.184.216.34/hooks/${name}`;

async function giveToken(page: Page) {
  await page.getByLabel('Token', { exact: true }).fill(WEBHOOK_TOKEN);
  await page.getByRole('button', { name: 'Use this token' }).click();
}

test('a view’s webhook is made from its page, listed, and deleted', async ({ page, servers }) => {
  const { contract, id } = servers.token;
  const view = `/contracts/${contract}/tokens/${id}`;
  await page.goto(view);
  await page.getByRole('link', { name: 'Get a webhook for this view' }).click();
  await expect(page).toHaveURL(`/webhooks?view=${encodeURIComponent(view)}`);
  await giveToken(page);
  await expect(page.getByLabel('View', { exact: true })).toHaveValue(view);
  // The token is the tab's: never in the address bar.
  expect(page.url()).not.toContain(WEBHOOK_TOKEN);

  const url = receiver(`made-${Date.now()}`);
  await page.getByLabel('Receiver URL', { exact: true }).fill(url);
  // Keyboard only from here: Enter in a field submits the form.
  await page.getByLabel('Receiver URL', { exact: true }).press('Enter');
  const made = page.getByRole('status').filter({ hasText: /Webhook \d+ made\./ });
  await expect(made).toBeVisible();
  const number = /Webhook (\d+) made/.exec((await made.textContent()) ?? '')![1]!;
  await expect(made.locator('code')).toHaveText(/^whsec_[A-Za-z0-9+/=]+$/);

  const card = page.getByRole('listitem', { name: `Webhook ${number}` });
  await expect(card).toContainText(url);
  await expect(card).toContainText(`Every new change of hands of ${view}`);
  await expect(card).toContainText('0 delivered · 0 pending · 0 failed');

  await card.getByRole('button', { name: 'Delete' }).press('Enter');
  const confirm = card.getByRole('button', { name: `Yes, delete webhook ${number}` });
  await expect(confirm).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(card).toHaveCount(0);
  // Gone from the server, not only from the screen.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your webhooks' })).toBeVisible();
  await expect(page.getByRole('listitem', { name: `Webhook ${number}` })).toHaveCount(0);
});

test('the webhooks page fits every width in both themes', async ({
  page,
  servers,
  consoleWatch,
}) => {
  test.setTimeout(120_000);
  // The refusal of a factor below 1 is the server's 400, which the browser logs.
  consoleWatch.allowApiFailures(400);
  const { contract } = servers.token;
  await page.goto('/webhooks?kind=sale-above-median');
  await giveToken(page);
  await page.getByLabel('Receiver URL', { exact: true }).fill(receiver(`layout-${Date.now()}`));
  await page.getByLabel('Collection', { exact: true }).fill(contract);
  await page.getByLabel('Times the median', { exact: true }).fill('0.5');
  await page.getByRole('button', { name: 'Make the webhook' }).click();
  await expect(page.getByLabel('Times the median', { exact: true })).toHaveAccessibleDescription(
    'factor must be a number from 1 to 1000000.',
  );
  await page.getByLabel('Times the median', { exact: true }).fill('3');
  await page.getByRole('button', { name: 'Make the webhook' }).click();
  const made = page.getByRole('status').filter({ hasText: /Webhook \d+ made\./ });
  const number = /Webhook (\d+) made/.exec((await made.textContent()) ?? '')![1]!;
  const card = page.getByRole('listitem', { name: `Webhook ${number}` });
  await card.getByRole('link', { name: 'Delivery log' }).click();
  await expect(page.getByText('No delivery yet')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  const shots = '/tmp/shots-hooks-page';
  mkdirSync(shots, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoSidewaysScroll(page, `webhooks at ${width} px, ${scheme}`);
      const name = `webhooks-${width}-${scheme}`;
      await screenshot(page, name, { fullPage: true });
      copyFileSync(join(SCREENSHOTS_DIR, `${name}.png`), join(shots, `${name}.png`));
    }
  }
  await card.getByRole('button', { name: 'Delete' }).click();
  await card.getByRole('button', { name: `Yes, delete webhook ${number}` }).click();
  await expect(card).toHaveCount(0);
});
