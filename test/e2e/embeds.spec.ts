import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './support/fixtures';

/**
 * A collection's embedded pages in another site's frame: a page of another origin (a tiny
 * server on another port) frames the activity chart, dark, and the latest events, and
 * they show; the same page framing the collection's own page is refused by the browser.
 */
test.describe.configure({ mode: 'parallel' });

/** Serves one HTML page on a free port of 127.0.0.1: another origin than the app's. */
async function otherSite(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test('another site frames the embedded pages, and not the collection’s own page', async ({
  browser,
  baseURL,
  servers,
}) => {
  test.setTimeout(90_000);
  const contract = servers.contracts.deep[0]!;
  const site = await otherSite(`<!doctype html><title>A blog</title>
    <iframe id="activity" src="${baseURL}/embed/contracts/${contract.address}/activity?theme=dark" width="640" height="360"></iframe>
    <iframe id="latest" src="${baseURL}/embed/contracts/${contract.address}/latest?theme=light" width="420" height="460"></iframe>
    <iframe id="page" src="${baseURL}/contracts/${contract.address}" width="640" height="360"
      onload="document.body.dataset.pageFrame = 'loaded'"></iframe>`);
  // Its own context: the refused frame is an error in this page's console, by design.
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(site.url);

    const activity = page.frameLocator('#activity');
    await expect(activity.getByRole('heading', { level: 1 })).toContainText(contract.name);
    await expect(activity.getByRole('heading', { level: 1 })).toContainText('activity');
    // The chart drawn (its bars can be read one by one), as soon as the index has its events.
    await expect(activity.getByRole('slider')).toBeVisible({ timeout: 30_000 });
    await expect(activity.locator('html')).toHaveAttribute('data-theme', 'dark');
    const open = activity.getByRole('link', {
      name: `Open ${contract.name} on Token activity (new tab)`,
    });
    await expect(open).toHaveAttribute('target', '_blank');
    await expect(open).toHaveAttribute('href', `/contracts/${contract.address}`);

    const latest = page.frameLocator('#latest');
    await expect(latest.getByRole('list', { name: 'Latest changes of hands' })).toBeVisible();
    await expect(latest.getByRole('listitem')).toHaveCount(10);
    await expect(latest.locator('html')).toHaveAttribute('data-theme', 'light');

    // The collection's own page is not shown in another site's frame: once its frame has
    // loaded, it holds the browser's refusal, not the app (the embedded frames do).
    await expect(page.locator('body')).toHaveAttribute('data-page-frame', 'loaded');
    await expect(activity.locator('#root')).toHaveCount(1);
    await expect(page.frameLocator('#page').locator('#root')).toHaveCount(0);
  } finally {
    await context.close();
    await site.close();
  }
});
