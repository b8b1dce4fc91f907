import { expect, test } from './support/fixtures';
import { dataRows, eventsTable } from './support/ui';

/*
 * What the real service sends, as a visitor meets it through the server's index: each
 * sale as two records (one row), prices in hex or decimal in their currencies.
 */

test('each sale is one row, its price in its currency', async ({ page, servers }) => {
  const contract = servers.contracts.deep[0]!;
  await page.goto(`/contracts/${contract.address}`);
  const table = eventsTable(page);
  await expect(dataRows(table).first()).toBeVisible();
  // Each row's transaction and its price cell as read (without the notes of its hints).
  const rows = await dataRows(table).evaluateAll((elements) =>
    elements.map((row) => {
      const cell = row.children[5]!.cloneNode(true) as HTMLElement;
      cell.querySelectorAll('[role="tooltip"]').forEach((note) => note.remove());
      return {
        kind: row.children[0]!.textContent?.trim(),
        price: cell.textContent?.trim() ?? '',
        transaction: row.querySelector('td:last-child [title]')?.getAttribute('title'),
      };
    }),
  );
  // A sale's transfer and sale records are one row: no transaction twice.
  const transactions = rows.map((row) => row.transaction);
  expect(new Set(transactions).size).toBe(transactions.length);
  // Prices, on the view of sales.
  await page.goto(`/contracts/${contract.address}?kind=sale`);
  await expect(dataRows(table).first()).toContainText('Sale');
  const prices = await dataRows(table).evaluateAll((elements) =>
    elements.map((row) => {
      const cell = row.children[5]!.cloneNode(true) as HTMLElement;
      cell.querySelectorAll('[role="tooltip"]').forEach((note) => note.remove());
      return cell.textContent?.trim() ?? '';
    }),
  );
  expect(prices.length).toBeGreaterThan(0);
  for (const text of prices) {
    expect(text).toMatch(
      /^((≈ |< )?[\d,.]+ (ETH\*?|STRK|USDC)|[\d,]+(\.\de\d+)? units\?)( · qty \d+)?$/,
    );
  }
  await page.goto(`/contracts/${contract.address}?currency=STRK&kind=sale`);
  await expect(table.getByText(/^[\d,.]+ STRK$/).first()).toBeVisible();
});
