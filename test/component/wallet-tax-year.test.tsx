import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CURRENCIES } from '../../src/lib/price';
import type { TaxYearAnswer, TaxYearSale } from '../../src/lib/tax-year';
import { installSampleApi, renderAt } from './harness';

/*
 * The wallet page's year for taxes over the query API's answer (answered here in the
 * server's shape: src/lib/tax-year.ts): the year in the URL, the rows, the totals, the
 * CSV's link, and a year the page cannot read said and left out.
 */
afterEach(() => vi.restoreAllMocks());

const A = (digits: string) => `0x${digits.padStart(64, '0')}`;
const WALLET = A('7ab');
const COLLECTION = A('c011');
const [ETH] = CURRENCIES;
const known = (currency: (typeof CURRENCIES)[number]) => ({
  address: currency.address,
  state: 'known' as const,
  symbol: currency.symbol,
  decimals: currency.decimals,
});
const at = (iso: string) => Date.parse(iso) / 1000;
const eth = (units: string, assumed = false) => ({ units, currency: known(ETH!), assumed });

const SALES: TaxYearSale[] = [
  {
    collection: { address: COLLECTION, name: 'Blobs' },
    tokenId: '7',
    acquired: { how: 'bought', at: at('2023-12-01T00:00:00Z'), price: eth('1000000000000000000') },
    sold: { at: at('2024-02-01T00:00:00Z'), price: eth('1500000000000000000') },
    heldDays: 62,
    result: eth('500000000000000000'),
    noResult: null,
  },
  {
    collection: { address: COLLECTION, name: 'Blobs' },
    tokenId: '8',
    acquired: { how: 'minted', at: at('2024-01-05T00:00:00Z'), price: null },
    sold: { at: at('2024-03-01T00:00:00Z'), price: eth('200000000000000000') },
    heldDays: 56,
    result: null,
    noResult: 'unknown-cost',
  },
];

function answerOf(year: number): TaxYearAnswer {
  const sales = year === 2024 ? SALES : [];
  return {
    address: WALLET,
    year,
    from: Date.UTC(year, 0, 1) / 1000,
    to: Date.UTC(year + 1, 0, 1) / 1000,
    sales,
    totals:
      year === 2024
        ? [
            {
              currency: known(ETH!),
              sales: 2,
              proceeds: '1700000000000000000',
              withResult: 1,
              cost: '1000000000000000000',
              resultProceeds: '1500000000000000000',
              result: '500000000000000000',
              unknownCost: 1,
              otherCurrency: 0,
            },
          ]
        : [],
    gross: 'Gross: prices as the service gives them. Fees are not known.',
    counted: 'A token counts in the year of its sale.',
    covers: '',
  };
}

function installTaxApi() {
  const api = installSampleApi({ profile: 'documented' });
  const asked: number[] = [];
  api.intercept = (path) => {
    const url = new URL(path, 'http://localhost');
    if (url.pathname === `/api/wallets/${WALLET}/tax-year`) {
      const year = Number(url.searchParams.get('year'));
      asked.push(year);
      return Response.json(answerOf(year));
    }
    if (url.pathname === `/api/wallets/${WALLET}`) {
      return Response.json({ address: WALLET, collections: [], covers: '', faults: [] });
    }
    if (url.pathname === `/api/wallets/${WALLET}/events`) {
      return Response.json({ events: [], next: null });
    }
    return null;
  };
  return { asked };
}

describe('a wallet’s year for taxes', () => {
  it('shows the year of the link: each token sold, its cost or why none, the totals and the file', async () => {
    const { asked } = installTaxApi();
    renderAt(`/addresses/${WALLET}?year=2024`);
    const section = await screen.findByRole('region', { name: 'Year for taxes' });
    expect(within(section).getByLabelText('Tokens sold in (UTC)')).toHaveValue('2024');
    const table = await within(section).findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Blobs #7');
    expect(rows[0]).toHaveTextContent('bought 2023-12-01');
    expect(rows[0]).toHaveTextContent('+0.5 ETH');
    expect(rows[0]).toHaveTextContent('62 days');
    // A minted token: its cost is unknown, never a gain from zero.
    expect(rows[1]).toHaveTextContent('minted 2024-01-05');
    expect(rows[1]).toHaveTextContent('unknown');
    expect(rows[1]).toHaveTextContent('cost unknown (minted)');
    expect(rows[1]).not.toHaveTextContent('+0.2');
    expect(within(section).getByText('In ETH').parentElement).toHaveTextContent(
      '2 sold for 1.7 ETHresult +0.5 ETH on 1 token bought for 1 ETH1 minted or received: cost unknown',
    );
    expect(section).toHaveTextContent('Fees are not known');
    expect(within(section).getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
      'href',
      `/api/wallets/${WALLET}/tax-year/export?year=2024`,
    );
    expect(asked).toEqual([2024]);
  });

  it('keeps the year chosen in the URL, and says when nothing was sold', async () => {
    installTaxApi();
    const { router } = renderAt(`/addresses/${WALLET}?year=2024`);
    const picker = await screen.findByLabelText('Tokens sold in (UTC)');
    await userEvent.selectOptions(picker, '2023');
    await waitFor(() => expect(router.state.location.search).toBe('?year=2023'));
    expect(
      await screen.findByText('No token sold by this wallet in 2023 that the index holds.'),
    ).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Download CSV' })).toBeNull();
  });

  it('says why a year it cannot read is left out, and shows this year’s', async () => {
    const { asked } = installTaxApi();
    const { router } = renderAt(`/addresses/${WALLET}?year=1800&sort=-time`);
    await waitFor(() => expect(router.state.location.search).toBe('?sort=-time'));
    expect(
      await screen.findByText(/“year=1800”: 1800 is outside the years there can be sales in/),
    ).toBeVisible();
    const thisYear = new Date().getUTCFullYear();
    expect(await screen.findByLabelText('Tokens sold in (UTC)')).toHaveValue(String(thisYear));
    await waitFor(() => expect(asked).toContain(thisYear));
    expect(asked).not.toContain(1800);

    const second = renderAt(`/addresses/${WALLET}?year=soon`);
    await waitFor(() => expect(second.router.state.location.search).toBe(''));
    expect(await screen.findByText(/“year=soon”: “soon” is not a year/)).toBeVisible();
  });
});
