import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MarketAnswer } from '../../src/lib/answers';
import { busiestContract, failFirst, renderAt, smallDataset } from './harness';
import { indexedApiForTests } from './indexed-api';

/**
 * A collection's market page over the query API as it runs: each table and figure is the
 * server's answer, the span lives in the URL and goes with every request, and a failed
 * or empty answer says so.
 */
const install = indexedApiForTests();
const contract = busiestContract();
const page = `/contracts/${contract.address}/market`;
const api = `/api/collections/${contract.address}/market`;

const marketRequests = (requests: string[]) => requests.filter((path) => path.startsWith(api));
const figure = (label: string) => screen.getByText(label, { selector: 'dt' }).nextSibling;
const share = (value: number) => `${(value * 100).toFixed(1).replace(/\.0$/, '')}%`;

describe('the market page', () => {
  it('shows each currency’s top sales, the marketplaces’ shares, the minters and the wait for a first sale', async () => {
    const server = await install({ indexed: [contract.address] });
    const answer = (await server.answer(api)) as unknown as MarketAnswer;
    expect(answer.topSales.length).toBeGreaterThan(0);
    const { router } = renderAt(page);

    const tables = await screen.findAllByRole('table', { name: /^Top \d+ sales in / });
    expect(tables).toHaveLength(answer.topSales.length);
    answer.topSales.forEach((group, index) => {
      const table = tables[index]!;
      expect(table).toHaveAccessibleName(new RegExp(`^Top ${group.sales.length} sales in `));
      const tokens = within(table)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href'))
        .filter((href) => href?.includes('/tokens/'));
      expect(tokens).toEqual(
        group.sales.map((sale) => `/contracts/${contract.address}/tokens/${sale.tokenId}`),
      );
    });
    // A top sale that named no currency is ETH's, marked "*" with its note.
    const assumed = answer.topSales
      .flatMap((group) => group.sales)
      .filter((s) => s.currencyAssumed);
    expect(assumed.length).toBeGreaterThan(0);
    const marks = tables.flatMap((table) => within(table).queryAllByText('*'));
    expect(marks).toHaveLength(assumed.length);
    for (const mark of marks) expect(mark).toHaveAccessibleDescription(/ETH is assumed/);
    const markets = screen.getByRole('table', { name: 'Sales and volume per marketplace' });
    for (const market of answer.marketplaces) {
      const row = within(markets)
        .getByRole('rowheader', { name: market.name ?? 'none named' })
        .closest('tr')!;
      expect(row).toHaveTextContent(market.sales.toLocaleString('en'));
      expect(row).toHaveTextContent(share(market.share));
    }
    const m = answer.minters;
    expect(figure('Wallets that minted')).toHaveTextContent(m.minters.toLocaleString('en'));
    expect(figure('Still holding a token')).toHaveTextContent(
      `${m.holding.toLocaleString('en')} (${share(m.holdingShare)})`,
    );
    expect(figure('Still held by their minter')).toHaveTextContent(
      `${m.keptByMinter.toLocaleString('en')} (${share(m.keptShare)})`,
    );
    expect(figure('Never sold')).toHaveTextContent(answer.firstSale.neverSold.toLocaleString('en'));
    const waits = screen.getByRole('table', { name: /^Time from mint to first sale/ });
    for (const bucket of answer.firstSale.buckets) {
      const row = within(waits).getByRole('rowheader', { name: bucket.range }).closest('tr')!;
      expect(row).toHaveTextContent(bucket.tokens.toLocaleString('en'));
    }
    expect(screen.getByText(/Tokens held, not copies/)).toBeInTheDocument();

    // The mints chart's legend lists the one series it draws, with its count.
    const mints = screen.getByText(/^Mints per /).closest('figure')!;
    await waitFor(() => expect(mints).not.toHaveAttribute('aria-busy'));
    const legend = within(mints)
      .getAllByRole('listitem')
      .map((item) => item.textContent?.trim());
    expect(legend).toEqual([expect.stringMatching(/^Mint [1-9][\d,]*$/)]);

    // A sale's token opens its page.
    const first = answer.topSales[0]!.sales[0]!;
    await userEvent.click(
      within(tables[0]!)
        .getAllByRole('link')
        .find((link) => link.getAttribute('href')?.endsWith(`/tokens/${first.tokenId}`))!,
    );
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(
        `/contracts/${contract.address}/tokens/${first.tokenId}`,
      ),
    );
  });

  it('keeps the span in the URL and asks for it; an empty span says so; Whole history clears it', async () => {
    const server = await install({ indexed: [contract.address] });
    const { router } = renderAt(`${page}?to=2000-01-03&from=2000-01-01&time=bogus`);
    await waitFor(() =>
      expect(router.state.location.search).toBe('?from=2000-01-01&to=2000-01-03'),
    );
    expect((await screen.findAllByText('No sales in 1 Jan 2000 – 2 Jan 2000')).length).toBe(2);
    await screen.findByText('No token minted in 1 Jan 2000 – 2 Jan 2000');
    expect(marketRequests(server.requests).at(-1)).toBe(`${api}?from=2000-01-01&to=2000-01-03`);

    await userEvent.click(screen.getByRole('button', { name: 'Whole history' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await screen.findByRole('table', { name: 'Sales and volume per marketplace' });
    expect(marketRequests(server.requests).at(-1)).toBe(api);

    // A day picked is a span of that day in the URL and in the request.
    await userEvent.type(screen.getByLabelText('From'), '2000-01-05');
    await waitFor(() =>
      expect(router.state.location.search).toBe('?from=2000-01-05&to=2000-01-06'),
    );
    await waitFor(() =>
      expect(marketRequests(server.requests).at(-1)).toBe(`${api}?from=2000-01-05&to=2000-01-06`),
    );
  });

  it('leaves flagged sales out with the switch: in the URL, in the request and in what it shows', async () => {
    // A dataset whose busiest collection has sales the rules flag.
    const flagging = busiestContract(smallDataset(9));
    const server = await install({ seed: 9, indexed: [flagging.address] });
    const base = `/api/collections/${flagging.address}/market`;
    const all = (await server.answer(base)) as unknown as MarketAnswer;
    const without = (await server.answer(`${base}?wash=exclude`)) as unknown as MarketAnswer;
    expect(without.sales).toBeLessThan(all.sales);
    const latest = () => server.requests.filter((path) => path.startsWith(base)).at(-1);
    const totalSales = () =>
      within(screen.getByRole('table', { name: 'Sales and volume per marketplace' }))
        .getAllByRole('row')
        .slice(1)
        .reduce((sum, row) => sum + Number(row.children[1]!.textContent!.replace(/,/g, '')), 0);
    const { router } = renderAt(`/contracts/${flagging.address}/market`);
    await screen.findByRole('table', { name: 'Sales and volume per marketplace' });
    expect(totalSales()).toBe(all.sales);
    const toggle = screen.getByRole('switch', { name: 'Leave flagged sales out' });
    expect(toggle).not.toBeChecked();

    await userEvent.click(toggle);
    await waitFor(() => expect(router.state.location.search).toBe('?wash=exclude'));
    expect(toggle).toBeChecked();
    await waitFor(() => expect(latest()).toBe(`${base}?wash=exclude`));
    await screen.findByText(/flagged as possible wash trades are left out/);
    await waitFor(() => expect(totalSales()).toBe(without.sales));
    expect(figure('Never sold')).toHaveTextContent(
      without.firstSale.neverSold.toLocaleString('en'),
    );

    await userEvent.click(toggle);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    // The answer with them is the one already read.
    await waitFor(() => expect(totalSales()).toBe(all.sales));
  });

  it('a failed answer says which side failed, and Retry brings the market', async () => {
    const server = await install({ indexed: [contract.address] });
    failFirst(server, (path) => path.startsWith(api));
    renderAt(page);
    expect((await screen.findAllByText(/dashboard’s server failed/)).length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByRole('table', { name: 'Sales and volume per marketplace' });
  });

  it('is linked from the collection’s page, and links back to its events', async () => {
    await install({ indexed: [contract.address] });
    const { router } = renderAt(`/contracts/${contract.address}`);
    await userEvent.click(await screen.findByRole('link', { name: 'Market' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(page));
    await userEvent.click(
      await screen.findByRole('link', { name: '‹ Back to the collection’s events' }),
    );
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/contracts/${contract.address}`),
    );
  });
});
