import { expect, test } from './support/fixtures';
import { dataRows, eventsTable, loadStatus, recordPages } from './support/ui';

/*
 * The event store in front of the service, as a visitor meets it: the service forgets
 * its cursors at any time (its cursor cache evicts them), and the store walks on from the
 * list's head by itself. Only the deployed profile has a contract no other test opens
 * (the fault tests use it on the server without a store) that takes the store more than
 * one upstream page; the documented profile's records are smaller.
 */

/** A counter of the server's Prometheus text, summed over its labels. */
async function metric(appUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${appUrl}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

test('a walk goes on by itself when the service has forgotten its cursors', async ({
  page,
  sample,
  servers,
}) => {
  test.skip(servers.profile !== 'deployed', 'no contract of several upstream pages to itself');
  const contract = servers.contracts.forFaults[0]!;
  const pages = recordPages(page, `/api/v1/events/${contract.address}`);
  await page.goto(`/contracts/${contract.address}`);
  await expect(dataRows(eventsTable(page)).first()).toBeVisible();
  const before = await metric(servers.appUrl, 'store_recoveries_total');
  // Every cursor the service issued is gone, the one the store would read on with too.
  await sample.forgetCursors();
  await page.getByRole('button', { name: 'Load full history' }).click();
  await expect(loadStatus(page)).toHaveText(
    `all ${contract.rowCount.toLocaleString('en')} events loaded`,
    { timeout: 20_000 },
  );
  await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
  const records = await pages.records();
  expect(records.distinct).toBe(contract.eventCount);
  expect(records.total).toBe(contract.eventCount);
  // The store met the dead cursor and walked round it.
  expect(await metric(servers.appUrl, 'store_recoveries_total')).toBe(before + 1);
});
