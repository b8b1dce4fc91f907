import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { imagesInViewDecoded } from './support/pages';
import { REPO_DIR } from './support/servers';
import { expect, test } from './support/fixtures';
import {
  contractsTable,
  rankingOf,
  dataRows,
  eventsTable,
  loadStatus,
  scrollUntilMoreThan,
  loadedCount,
} from './support/ui';

test.describe.configure({ mode: 'parallel' });

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test('the API key is nowhere in dist/', async ({ servers }) => {
  const files = filesUnder(join(REPO_DIR, 'dist'));
  expect(files.some((file) => file.endsWith('index.html'))).toBe(true);
  const carriers = files.filter((file) => readFileSync(file).includes(servers.apiKey));
  expect(carriers).toEqual([]);
});

test('the API key reaches the browser in no response, header or page', async ({
  page,
  servers,
  keyWatch,
  consoleWatch,
}) => {
  consoleWatch.allowApiFailures(400, 404);
  // keyWatch checks every response of the test; this walks through every kind of page.
  const busiest = servers.contracts.deep[0]!;
  await page.goto(rankingOf(busiest.name));
  await contractsTable(page).getByRole('link', { name: busiest.name }).click();
  await expect(dataRows(eventsTable(page)).first()).toBeVisible();
  await scrollUntilMoreThan(page, await loadedCount(page));
  await page.getByRole('link', { name: /^\d+$/ }).first().click();
  await expect(loadStatus(page)).toHaveText(/^all [\d,]+ events? loaded/);
  await page.goto('/contracts/0xnot-hex');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'This is not a contract address',
  );
  // What the app's own endpoints say about the upstream.
  for (const path of [
    '/api/meta',
    '/healthz',
    '/readyz',
    '/api/v1/nothing',
    `/api/v1/events/0xzz`,
  ]) {
    await page.goto(path);
  }
  await page.goto(`/contracts/${busiest.address}`);
  await expect(dataRows(eventsTable(page)).first()).toBeVisible();

  const html = await page.content();
  expect(html).not.toContain(servers.apiKey);
  const storage = await page.evaluate(
    () =>
      JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie,
  );
  expect(storage).not.toContain(servers.apiKey);
  expect(await keyWatch.checked()).toBeGreaterThan(10);
});

test('the hostile contract runs nothing and shows its name as text', async ({ page, servers }) => {
  const hostile = servers.contracts.hostile;
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  // Anything the markup managed to run would call one of these.
  await page.addInitScript(() => {
    const record = (what: string) => () => {
      (window as unknown as { __sideEffects: string[] }).__sideEffects.push(what);
    };
    (window as unknown as { __sideEffects: string[] }).__sideEffects = [];
    window.alert = record('alert');
    window.confirm = () => (record('confirm')(), false);
    window.prompt = () => (record('prompt')(), null);
  });

  const check = async () => {
    expect(
      await page.evaluate(() => (window as unknown as { __sideEffects: string[] }).__sideEffects),
    ).toEqual([]);
    expect(dialogs).toEqual([]);
    // The name's markup did not become an element, the image URL did not become a source.
    await expect(page.locator('img[src="x"], [onerror]')).toHaveCount(0);
    await expect(page.locator('[src^="javascript:" i], [href^="javascript:" i]')).toHaveCount(0);
    expect(requested.filter((path) => path === '/x')).toEqual([]);
  };

  await page.goto(rankingOf(hostile.name));
  const link = contractsTable(page).getByRole('link', { name: hostile.name });
  await expect(link).toBeVisible();
  await expect(link).toContainText(hostile.name);
  await check();

  await link.click();
  await expect(page).toHaveURL(`/contracts/${hostile.address}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(hostile.name);
  await expect(dataRows(eventsTable(page)).first()).toBeVisible();
  await check();

  // The lookup box and URL params do not render markup either.
  await page.goto(`/contracts/${encodeURIComponent('<img src=x onerror=alert(1)>')}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'This is not a contract address',
  );
  await expect(page.getByRole('alert')).toContainText('<img src=x onerror=alert(1)>');
  await check();
});

test('the server sends security headers', async ({ page, request, servers }) => {
  const response = await page.goto('/contracts');
  expect(response?.status()).toBe(200);
  for (const path of [
    '/',
    '/contracts',
    `/contracts/${servers.token.contract}`,
    '/api/v1/contracts',
    '/api/meta',
  ]) {
    const answer =
      path === '/contracts' && response ? response : await request.get(path, { maxRedirects: 0 });
    const headers = answer.headers();
    const csp = headers['content-security-policy'] ?? '';
    expect(csp, `CSP of ${path}`).toMatch(/default-src 'self'/);
    const scripts =
      /script-src ([^;]*)/.exec(csp)?.[1] ?? /default-src ([^;]*)/.exec(csp)?.[1] ?? '';
    expect(scripts, `script-src of ${path}`).not.toMatch(/'unsafe-inline'|'unsafe-eval'|\*/);
    expect(csp, `CSP of ${path}`).toMatch(/object-src 'none'/);
    expect(headers['x-content-type-options'], path).toBe('nosniff');
    expect(headers['referrer-policy'], path).toMatch(
      /^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/,
    );
    const framing = headers['x-frame-options'] ?? '';
    expect(
      /^(deny|sameorigin)$/i.test(framing) || /frame-ancestors '(none|self)'/.test(csp),
      `frame protection of ${path}`,
    ).toBe(true);
  }
});

test('collection images come from our server alone, and the page allows no other', async ({
  page,
  servers,
}) => {
  const images: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'image') images.push(request.url());
  });
  const response = await page.goto('/contracts');
  expect(response?.headers()['content-security-policy']).toMatch(/img-src 'self' data:(;|$)/);
  await expect(contractsTable(page).getByRole('row').nth(1)).toBeVisible();
  await imagesInViewDecoded(page);
  // The busiest collection's picture (the sample's inline PNG), served by our server and
  // drawn, not replaced by its monogram.
  await page.goto(`/contracts/${servers.token.contract}/tokens/${servers.token.id}`);
  const picture = page.locator(`img[src^="/api/images/contracts/${servers.token.contract}?v="]`);
  await expect(picture).toBeVisible();
  await expect
    .poll(() => picture.evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBe(60);
  const origin = new URL(page.url()).origin;
  const fetched = images.filter((url) => !url.startsWith('data:'));
  expect(fetched.length).toBeGreaterThan(0);
  for (const url of fetched) expect(url).toMatch(new RegExp(`^${origin}/api/images/contracts/`));
});

test("/api/v1 answers from the server's record log: never kept by the browser, the next cursor in a header", async ({
  request,
}) => {
  const first = await request.get('/api/v1/contracts?limit=5');
  expect(first.status()).toBe(200);
  const headers = first.headers();
  expect(headers['cache-control']).toBe('no-store');
  expect(headers['x-cache']).toBeUndefined();
  const body = (await first.json()) as { result: unknown[]; cursor: string | null };
  expect(body.result).toHaveLength(5);
  // The log's own cursor, the same in the header as in the body.
  expect(body.cursor).toBeTruthy();
  expect(headers['x-next-cursor']).toBe(body.cursor);
  expect(headers['x-list-stopped']).toBeUndefined();
  const next = await request.get(
    `/api/v1/contracts?limit=5&cursor=${encodeURIComponent(body.cursor!)}`,
  );
  expect(next.status()).toBe(200);
  expect(((await next.json()) as { result: unknown[] }).result).toHaveLength(5);
  // A cursor the server never gave is refused, not passed to the service.
  const forged = await request.get('/api/v1/contracts?cursor=not-ours');
  expect(forged.status()).toBe(400);
  // An address the service does not list is an empty list that says why, read from nowhere.
  const unlisted = `0x${'0'.repeat(60)}dead`;
  const empty = await request.get(`/api/v1/events/${unlisted}`);
  expect(empty.status()).toBe(200);
  expect(await empty.json()).toEqual({ result: [], cursor: null });
  expect(empty.headers()['x-list-stopped']).toMatch(
    /not a collection the Token Events Service lists/i,
  );
});

test('pages and files answer only GET and HEAD, and HSTS never comes over plain HTTP', async ({
  request,
}) => {
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE']) {
    for (const path of ['/', '/contracts', '/index.html']) {
      const response = await request.fetch(path, { method, maxRedirects: 0 });
      expect(response.status(), `${method} ${path}`).toBe(405);
      expect(response.headers()['allow'], `${method} ${path}`).toBe('GET, HEAD');
      expect(await response.text(), `${method} ${path}`).not.toContain('<script');
    }
  }
  for (const path of ['/', '/api/meta', '/healthz']) {
    const response = await request.get(path);
    expect(response.headers()['strict-transport-security'], path).toBeUndefined();
  }
});
