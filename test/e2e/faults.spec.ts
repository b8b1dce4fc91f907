import type { Page } from '@playwright/test';
import type { ContractInfo, ProfileServers } from './support/servers';
import { expect, test as base, type FaultPlan, type SampleControl } from './support/fixtures';
import {
  dataRows,
  eventsTable,
  expectRenderedRowsDistinct,
  loadedCount,
  loadStatus,
  recordPages,
  scrollToBottom,
} from './support/ui';

/*
 * Faults of the upstream, injected through the sample service's /_control/faults, as the
 * browser meets them page by page: these tests use the server with the event store off,
 * where each page the browser asks for is one upstream request (through the store, a
 * page is often served without one, and a refused cursor is retried and walked round by
 * the store itself: store.spec.ts). The plan
 * is one per sample service, so the tests of this file run one after another (one worker
 * per project); each plan names its contract, so tests of other files running meanwhile
 * are not hit. Each test opens a contract no other test opens: the proxy keeps pages it
 * has served (a first page for seconds, a page behind a cursor for minutes), and a fault
 * set for a page it already holds would never reach the service.
 */

const test = base.extend({
  baseURL: async ({ servers }, use) => use(servers.directUrl),
});

const SCENARIOS = [
  // First: it needs the longest list, a page for each kind of failure.
  'failures-in-turn',
  'first-page',
  'timeout',
  '429-retry-after',
  '429-no-retry-after',
  '429-exhausted',
] as const;
type Scenario = (typeof SCENARIOS)[number] | 'page-3-of-5';

/** Each scenario's own contract; the one with five pages goes to the page-3 test. */
function contractFor(servers: ProfileServers, scenario: Scenario): ContractInfo {
  const candidates = servers.contracts.forFaults;
  const fivePages =
    candidates.find((contract) => contract.eventCount > 400 && contract.eventCount <= 500) ??
    candidates.find((contract) => contract.eventCount > 400);
  if (scenario === 'page-3-of-5') {
    if (!fivePages) throw new Error('The dataset has no contract with five pages of events.');
    return fivePages;
  }
  const contract = candidates.filter((c) => c !== fivePages)[SCENARIOS.indexOf(scenario)];
  if (!contract)
    throw new Error(`No contract left for the ${scenario} test: enlarge the e2e dataset.`);
  return contract;
}

/** Only the pages behind a cursor of this contract's list: its first page stays healthy. */
const nextPagesOf = (contract: ContractInfo) => `/v1/events/${contract.address}?cursor=`;

/** Opens the contract and waits for its first rows; records every page the browser gets. */
async function openContract(page: Page, contract: ContractInfo) {
  const pages = recordPages(page, `/api/v1/events/${contract.address}`);
  await page.goto(`/contracts/${contract.address}`);
  await expect(loadStatus(page)).toHaveText(/ events loaded · more available/);
  await expect(dataRows(eventsTable(page)).first()).toBeVisible();
  return { pages, loaded: await loadedCount(page) };
}

/**
 * The loaded count is the number of changes of hands received (a sale's two records one),
 * and no record was received twice (unless the list was read again from its head).
 */
async function expectNoDuplicates(
  page: Page,
  pages: ReturnType<typeof recordPages>,
  readAgain = false,
) {
  await expect(async () => {
    const loaded = await loadedCount(page);
    const records = await pages.records();
    expect(records.changes, 'changes of hands received').toBe(loaded);
    if (!readAgain) expect(records.total, 'records received in all').toBe(records.distinct);
  }).toPass({ timeout: 10_000 });
  await expectRenderedRowsDistinct(eventsTable(page));
}

/** The error of a failed page (of a next page: under the loaded rows). */
const footerAlert = (page: Page) => page.getByRole('main').getByRole('alert');

/**
 * With the list open: the next page fails as `plan` says, the error shows under the kept
 * rows, and Retry (once the fault is gone) continues without duplicates.
 */
async function failNextPageThenRetry(
  page: Page,
  sample: SampleControl,
  contract: ContractInfo,
  pages: ReturnType<typeof recordPages>,
  plan: FaultPlan,
  title: string,
) {
  const before = await loadedCount(page);
  await sample.setFaults({ ...plan, pathIncludes: nextPagesOf(contract) });
  const alert = footerAlert(page);
  // The table follows a new page a render after the status line, so the bottom may move
  // under the first scroll; scrolling again until the next page is asked for. Timeouts
  // and dropped connections are retried once by themselves before they show.
  await expect(async () => {
    await scrollToBottom(page);
    await expect(alert).toContainText(title, { timeout: 2_000 });
  }).toPass({ timeout: 25_000 });
  // A page asked for by the scroll before the fault was set may have arrived meanwhile.
  const loaded = await loadedCount(page);
  expect(loaded).toBeGreaterThanOrEqual(before);
  await expect(alert).toContainText(
    `The ${loaded.toLocaleString('en')} events already loaded are kept`,
  );
  await expect(loadStatus(page)).toHaveText(
    `${loaded.toLocaleString('en')} events loaded · more available`,
  );
  await expect(dataRows(eventsTable(page)).first()).toBeVisible();

  await sample.setFaults(null);
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(alert).toBeHidden();
  await expect.poll(() => loadedCount(page)).toBeGreaterThan(loaded);
  await expectNoDuplicates(page, pages);
}

test.describe('a failing upstream', () => {
  test.beforeEach(async ({ sample }) => {
    await sample.setFaults(null);
  });

  test('a failed first page, then Retry', async ({ page, sample, servers, consoleWatch }) => {
    const contract = contractFor(servers, 'first-page');
    consoleWatch.allowApiFailures(502);
    await sample.setFaults({
      fault: { type: 'status', status: 502 },
      pathIncludes: `/v1/events/${contract.address}`,
      nth: 1,
      times: 1,
    });
    await page.goto(`/contracts/${contract.address}`);
    const alert = page.getByRole('main').getByRole('alert');
    await expect(alert).toContainText('The service failed');
    await expect(eventsTable(page)).toHaveCount(0);
    await alert.getByRole('button', { name: 'Retry' }).click();
    await expect(dataRows(eventsTable(page)).first()).toBeVisible();
    await expect(alert).toBeHidden();
    await expect(loadStatus(page)).toHaveText(/ events loaded/);
  });

  test('each kind of failed next page in turn: message, rows kept, Retry, no duplicates', async ({
    page,
    sample,
    servers,
    consoleWatch,
  }) => {
    const contract = contractFor(servers, 'failures-in-turn');
    consoleWatch.allowApiFailures(403, 502);
    const { pages } = await openContract(page, contract);
    const cases: [string, FaultPlan, string][] = [
      ['403', { fault: { type: 'status', status: 403 } }, 'The service refused our key'],
      [
        '502',
        { fault: { type: 'status', status: 502, message: 'Internal server error' } },
        'The service failed',
      ],
      [
        'malformed JSON',
        { fault: { type: 'malformed-json' } },
        'The service sent something unreadable',
      ],
      ['truncated body', { fault: { type: 'truncated' } }, 'The service sent something unreadable'],
      ['dropped connection', { fault: { type: 'drop' } }, 'The service cannot be reached'],
    ];
    for (const [name, plan, title] of cases) {
      await test.step(name, () =>
        failNextPageThenRetry(page, sample, contract, pages, plan, title),
      );
    }
  });

  test('the service takes longer than the proxy waits', async ({
    page,
    sample,
    servers,
    consoleWatch,
  }) => {
    const contract = contractFor(servers, 'timeout');
    consoleWatch.allowApiFailures(504);
    const { pages } = await openContract(page, contract);
    await failNextPageThenRetry(
      page,
      sample,
      contract,
      pages,
      { latencyMs: 4_000 },
      'The service took too long',
    );
  });

  test('429 with Retry-After: waits as asked, then carries on', async ({
    page,
    sample,
    servers,
    consoleWatch,
  }) => {
    const contract = contractFor(servers, '429-retry-after');
    consoleWatch.allowApiFailures(429);
    const { pages, loaded } = await openContract(page, contract);
    await sample.setFaults({
      fault: { type: 'status', status: 429, retryAfterSeconds: 2 },
      pathIncludes: nextPagesOf(contract),
      nth: 1,
      times: 1,
    });
    await scrollToBottom(page);
    const notice = page
      .getByRole('status')
      .filter({ hasText: 'The service asked us to slow down' });
    await expect(notice).toContainText('Retrying automatically in 2 s (attempt 2)');
    await expect(loadStatus(page)).toContainText(`${loaded.toLocaleString('en')} events loaded`);
    await expect.poll(() => loadedCount(page), { timeout: 10_000 }).toBeGreaterThan(loaded);
    await expect(notice).toBeHidden();
    await expect(footerAlert(page)).toHaveCount(0);
    await expectNoDuplicates(page, pages);
  });

  test('429 without Retry-After: backs off by itself, then carries on', async ({
    page,
    sample,
    servers,
    consoleWatch,
  }) => {
    const contract = contractFor(servers, '429-no-retry-after');
    consoleWatch.allowApiFailures(429);
    const { pages, loaded } = await openContract(page, contract);
    await sample.setFaults({
      fault: { type: 'status', status: 429 },
      pathIncludes: nextPagesOf(contract),
      nth: 1,
      times: 2,
    });
    await scrollToBottom(page);
    const notice = page
      .getByRole('status')
      .filter({ hasText: 'The service asked us to slow down' });
    // 1 s after the first refusal, 2 s after the second.
    await expect(notice).toContainText(/Retrying automatically in [12] s \(attempt [23]\)/);
    await expect(notice).toContainText('Retrying automatically in 2 s (attempt 3)');
    await expect.poll(() => loadedCount(page), { timeout: 10_000 }).toBeGreaterThan(loaded);
    await expect(notice).toBeHidden();
    await expect(footerAlert(page)).toHaveCount(0);
    await expectNoDuplicates(page, pages);
  });

  test('429 until the automatic retries run out', async ({
    page,
    sample,
    servers,
    consoleWatch,
  }) => {
    const contract = contractFor(servers, '429-exhausted');
    consoleWatch.allowApiFailures(429);
    const { pages } = await openContract(page, contract);
    // Retry-After: 0 keeps the six automatic retries quick (the proxy still waits 1 s each).
    await failNextPageThenRetry(
      page,
      sample,
      contract,
      pages,
      { fault: { type: 'status', status: 429, retryAfterSeconds: 0 } },
      'The service is busy',
    );
  });

  test('a failure on page 3 of 5, then Retry: rows kept, none twice', async ({
    page,
    sample,
    servers,
    consoleWatch,
  }) => {
    const contract = contractFor(servers, 'page-3-of-5');
    consoleWatch.allowApiFailures(502);
    const { pages } = await openContract(page, contract);
    // The second page behind a cursor is the third page of the list.
    await sample.setFaults({
      fault: { type: 'status', status: 502 },
      pathIncludes: nextPagesOf(contract),
      nth: 2,
      times: 1,
    });
    const alert = footerAlert(page);
    await expect(async () => {
      await scrollToBottom(page);
      await expect(alert).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(alert).toContainText('The service failed');
    const kept = await loadedCount(page);
    // Two full pages (the deployed profile's pages can be short or empty).
    if (servers.profile === 'documented') expect(kept).toBe(200);
    else expect(kept).toBeGreaterThan(0);
    await expect(alert).toContainText(
      `The ${kept.toLocaleString('en')} events already loaded are kept`,
    );
    // Under the kept rows: the last loaded row, then the error.
    await scrollToBottom(page);
    const lastRow = dataRows(eventsTable(page)).last();
    await expect(lastRow).toHaveAttribute('data-index', String(kept - 1));
    const rowBox = (await lastRow.boundingBox())!;
    const tableBox = (await eventsTable(page).boundingBox())!;
    const alertBox = (await alert.boundingBox())!;
    expect(alertBox.y).toBeGreaterThanOrEqual(rowBox.y + rowBox.height - 1);
    expect(alertBox.y).toBeGreaterThanOrEqual(tableBox.y + tableBox.height - 1);

    await alert.getByRole('button', { name: 'Retry' }).click();
    await expect(alert).toBeHidden();
    await expect.poll(() => loadedCount(page)).toBeGreaterThan(kept);
    await expectNoDuplicates(page, pages);

    // On to the end of the list: every event once.
    await expect(async () => {
      await scrollToBottom(page);
      await expect(loadStatus(page)).toHaveText(
        `all ${contract.rowCount.toLocaleString('en')} events loaded`,
        {
          timeout: 1_000,
        },
      );
    }).toPass({ timeout: 20_000 });
    await expectNoDuplicates(page, pages);
    await expect(page.getByText('End of the list.')).toBeVisible();
  });
});

/*
 * The deployed service forgets its cursors (a cursor cache that evicts them): every
 * request with a forgotten cursor is answered 502 for ever. With no store in front, the
 * browser meets it itself: a cursor that fails twice is dead, and the list is read again
 * from its head, past the rows it has.
 */
test.describe('a service that forgets its cursors', () => {
  test.beforeEach(async ({ sample, servers }) => {
    test.skip(servers.profile !== 'deployed', 'the documented service keeps no cursors');
    await sample.setFaults(null);
  });

  /** The smallest contracts of two pages or more: no other test opens them. */
  const forgetful = (servers: ProfileServers, index: number): ContractInfo =>
    servers.contracts.forFaults[servers.contracts.forFaults.length - 1 - index]!;

  test('browsing: a dead cursor is said in words, and Continue from the newest goes on', async ({
    page,
    sample,
    servers,
    consoleWatch,
  }) => {
    const contract = forgetful(servers, 0);
    consoleWatch.allowApiFailures(502);
    const { pages } = await openContract(page, contract);
    await sample.forgetCursors();
    const alert = footerAlert(page);
    await expect(async () => {
      await scrollToBottom(page);
      await expect(alert).toContainText('The service failed', { timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
    const kept = await loadedCount(page);
    // Asking again with the same cursor fails again: it is dead.
    await alert.getByRole('button', { name: 'Retry' }).click();
    await expect(alert).toContainText('The service lost its place in this list');
    await expect(alert).toContainText(
      `skips the ${kept.toLocaleString('en')} events already loaded`,
    );
    await alert.getByRole('button', { name: 'Continue from the newest' }).click();
    await expect.poll(() => loadedCount(page)).toBeGreaterThan(kept);
    await expect(alert).toBeHidden();
    await expectNoDuplicates(page, pages, true);
    await expect(async () => {
      await scrollToBottom(page);
      await expect(loadStatus(page)).toHaveText(
        `all ${contract.rowCount.toLocaleString('en')} events loaded`,
        { timeout: 1_000 },
      );
    }).toPass({ timeout: 20_000 });
    await expectNoDuplicates(page, pages, true);
  });

  test('"Load full history" walks round cursors forgotten mid-way by itself', async ({
    page,
    sample,
    servers,
    consoleWatch,
  }) => {
    const contract = servers.contracts.forFaults[0]!;
    consoleWatch.allowApiFailures(502);
    const { pages } = await openContract(page, contract);
    // Once the walk's first page is in, the service forgets every cursor, the one that
    // page names too.
    let forgot = false;
    await page.route(
      (url) =>
        url.pathname === `/api/v1/events/${contract.address}` && url.searchParams.has('cursor'),
      async (route) => {
        const response = await route.fetch();
        if (!forgot) {
          forgot = true;
          await sample.forgetCursors();
        }
        await route.fulfill({ response });
      },
    );
    await page.getByRole('button', { name: 'Load full history' }).click();
    await expect(loadStatus(page)).toHaveText(
      `all ${contract.rowCount.toLocaleString('en')} events loaded`,
      { timeout: 30_000 },
    );
    expect(forgot).toBe(true);
    await expect(footerAlert(page)).toHaveCount(0);
    await expectNoDuplicates(page, pages, true);
  });

  test('a token’s page walks round a forgotten cursor by itself', async ({
    page,
    sample,
    servers,
    consoleWatch,
  }) => {
    const { contract, id, rows } = servers.longToken;
    consoleWatch.allowApiFailures(502);
    // The history's first page asks for two records; then the service forgets its cursors.
    await page.route(
      (url) => url.pathname === `/api/v1/events/${contract}/${id}` && url.search === '',
      async (route) => {
        const response = await route.fetch({ url: `${route.request().url()}?limit=2` });
        await sample.forgetCursors();
        await route.fulfill({ response });
      },
    );
    await page.goto(`/contracts/${contract}/tokens/${id}`);
    await expect(loadStatus(page)).toHaveText(`all ${rows} events loaded`);
    await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
    const timeline = page.getByRole('region', { name: 'Provenance' }).getByRole('list');
    await expect(timeline.getByRole('listitem')).toHaveCount(rows + 1);
  });

  test('a full page without a cursor is not taken for the end: Check again reads on', async ({
    page,
    sample,
    servers,
  }) => {
    // A walk's pages are cut at the service's 1MB: the first of them comes without its
    // cursor, as when the service cannot reach its cursor cache.
    const contract = servers.contracts.deep[2]!;
    await openContract(page, contract);
    await sample.setFaults({
      fault: { type: 'no-cursor' },
      pathIncludes: `/v1/events/${contract.address}?cursor=`,
      nth: 1,
      times: 1,
    });
    await page.getByRole('button', { name: 'Load full history' }).click();
    await expect(loadStatus(page)).toHaveText(
      /^[\d,]+ events loaded · the service reported no more after a full page/,
      { timeout: 15_000 },
    );
    await expect(page.getByText('End of the list.')).toHaveCount(0);
    const unsure = await loadedCount(page);
    await page.getByRole('button', { name: 'Check again' }).click();
    await expect.poll(() => loadedCount(page), { timeout: 15_000 }).toBeGreaterThan(unsure);
    await expectRenderedRowsDistinct(eventsTable(page));
  });
});
