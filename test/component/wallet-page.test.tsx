import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CURRENCIES } from '../../src/lib/price';
import { tokenIdToHex } from '../../src/lib/token-id';
import { errorResponse } from '../../src/server/proxy/error-response';
import { installFakeEventSource } from './fake-event-source';
import { byEventCount, dataRows, installSampleApi, renderAt, statusText } from './harness';

/*
 * The wallet page over the query API. The harness's proxy has no event index (no
 * database), so `/api/wallets/…` is answered here with small answers in the server's
 * shape (src/server/api/wallets-api.ts, src/server/index/wallet.ts, event-rows.ts). The
 * collections' names are the wallet answer's: the page reads no list of the service.
 */
afterEach(() => vi.restoreAllMocks());

const A = (digits: string) => `0x${digits.padStart(64, '0')}`;
const WALLET = A('7b84aa11112222333344445555666677778888999900001111222233337481');
const OTHER = A('51ce');
const UNKNOWN_CURRENCY = A('abc0000000000000000000000000000000000000000000000000000000def1');
const [ETH, STRK] = CURRENCIES;
const known = (currency: (typeof CURRENCIES)[number]) => ({
  address: currency.address,
  state: 'known',
  symbol: currency.symbol,
  decimals: currency.decimals,
});

function walletAnswer() {
  const [first, second] = byEventCount();
  return {
    first: first!,
    second: second!,
    body: {
      address: WALLET,
      collections: [
        {
          address: first!.address,
          name: first!.name,
          symbol: first!.symbol,
          holds: 3,
          events: 7,
          bought: [
            { currency: known(ETH!), sales: 2, amount: '1500000000000000000' },
            { currency: known(STRK!), sales: 1, amount: '40000000000000000000' },
          ],
          sold: [],
          flaggedSales: 2,
          results: [
            {
              currency: known(ETH!),
              tokens: 2,
              cost: '1000000000000000000',
              proceeds: '1500000000000000000',
              result: '500000000000000000',
              flips: 1,
              assumed: 1,
            },
            {
              currency: known(STRK!),
              tokens: 1,
              cost: '40000000000000000000',
              proceeds: '30000000000000000000',
              result: '-10000000000000000000',
              flips: 0,
              assumed: 0,
            },
          ],
          lastActivity: 1_751_000_000,
        },
        {
          address: second!.address,
          name: second!.name,
          symbol: second!.symbol,
          holds: 0,
          events: 2,
          bought: [],
          sold: [
            {
              currency: { address: UNKNOWN_CURRENCY, state: 'unknown' },
              sales: 1,
              amount: '12500',
            },
          ],
          flaggedSales: 1,
          results: [
            {
              currency: known(ETH!),
              tokens: 1,
              cost: '2000000000000000000',
              proceeds: '1750000000000000000',
              result: '-250000000000000000',
              flips: 0,
              assumed: 0,
            },
          ],
          lastActivity: 1_750_000_000,
        },
      ],
      covers: 'Collections the index holds; a collection not indexed yet is not counted.',
    },
  };
}

const noTaxYear = {
  address: WALLET,
  year: 2026,
  from: 0,
  to: 0,
  sales: [],
  totals: [],
  gross: 'Gross.',
  counted: '',
  covers: '',
};

/** A change of hands as the query API sends it. */
function eventRow(index: number, contract: string, extra: Record<string, string> = {}) {
  const tokenId = String(100 + index);
  return {
    id: String(9000 - index),
    key: String(9000 - index),
    eventId: `0x${(5000 + index).toString(16)}_1`,
    kind: extra.price ? 'sale' : 'transfer',
    label: extra.price ? 'sale' : 'transfer',
    contractAddress: contract,
    from: index % 2 ? WALLET : OTHER,
    to: index % 2 ? OTHER : WALLET,
    tokenId,
    tokenIdHex: tokenIdToHex(BigInt(tokenId)),
    timestamp: 1_751_000_000 - index * 600,
    transactionHash: A((0xfeed00 + index).toString(16)),
    records: extra.price ? 'transfer+sale' : 'transfer',
    ...extra,
  };
}

/** Answers /api/wallets/… in the index's stead: two pages of events, then the end. */
function installWalletApi(
  options: {
    empty?: boolean;
    failFirst?: boolean;
    failSecondPage?: boolean;
    /** The wallet answer without its collections: not one the page can read. */
    unreadable?: boolean;
  } = {},
) {
  const api = installSampleApi({ profile: 'documented' });
  const answer = walletAnswer();
  const { first, second } = answer;
  let failures = options.failFirst ? 1 : 0;
  let secondPageFailures = options.failSecondPage ? 1 : 0;
  const page1 = [
    eventRow(0, first.address, { price: '500000000000000000', currencyAddress: ETH!.address }),
    ...Array.from({ length: 5 }, (_, index) => eventRow(index + 1, first.address)),
    eventRow(6, second.address, { price: '12500', currencyAddress: UNKNOWN_CURRENCY }),
  ];
  const page2 = [
    eventRow(7, first.address),
    eventRow(8, second.address),
    // A price that is no number in either format: shown as sent.
    eventRow(9, first.address, { priceText: 'twelve ETH' }),
  ];
  api.intercept = (path) => {
    const url = new URL(path, 'http://localhost');
    if (!url.pathname.startsWith('/api/wallets/')) return null;
    // The year for taxes has its own tests (wallet-tax-year.test.tsx): none sold here.
    if (url.pathname.endsWith('/tax-year')) return Response.json(noTaxYear);
    const failSecond = url.searchParams.has('cursor') && secondPageFailures > 0;
    if (failures > 0 || failSecond) {
      if (failSecond) secondPageFailures -= 1;
      else failures -= 1;
      return errorResponse({
        kind: 'internal',
        status: 500,
        message: 'The dashboard’s server failed to answer this request.',
      });
    }
    if (url.pathname === `/api/wallets/${WALLET}`) {
      if (options.unreadable) return Response.json({ address: WALLET });
      return Response.json(options.empty ? { ...answer.body, collections: [] } : answer.body);
    }
    if (url.pathname === `/api/wallets/${WALLET}/events`) {
      if (options.empty) return Response.json({ events: [], next: null });
      const collection = url.searchParams.get('collection');
      const cursor = url.searchParams.get('cursor');
      if (collection) {
        const rows = [...page1, ...page2].filter((row) => row.contractAddress === collection);
        return Response.json({ events: rows, next: null });
      }
      return cursor === 'signed-cursor-1'
        ? Response.json({ events: page2, next: null })
        : Response.json({ events: page1, next: 'signed-cursor-1' });
    }
    return null;
  };
  return { api, first, second };
}

describe('wallet page', () => {
  it('canonicalises the address, and tells each collection’s holdings, trades and events', async () => {
    const { api, first, second } = installWalletApi();
    const { router } = renderAt(
      `/addresses/${WALLET.replace(/^0x0+/, '0x').toUpperCase().replace('0X', '0x')}`,
    );
    await waitFor(() => expect(router.state.location.pathname).toBe(`/addresses/${WALLET}`));
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(
      'Wallet 0x7b84…7481',
    );
    await waitFor(() => expect(document.title).toBe('Wallet 0x7b84…7481'));
    expect(screen.getByRole('button', { name: `Copy wallet address ${WALLET}` })).toBeVisible();

    // First, the totals over every collection, each currency apart.
    const totals = await screen.findByRole('region', { name: 'Totals' });
    expect(totals).toHaveTextContent('Held now3 tokens in 2 collections');
    expect(totals).toHaveTextContent(/Spent2 sales · 1\.5 ETH\s*1 sale · 40 STRK/);
    expect(totals).toHaveTextContent('Received1 sale · 12,500 base units of');
    expect(totals).toHaveTextContent('Trades flagged3 possible wash trades');
    // Per currency over both collections, ETH marked assumed as one of its sales named none.
    expect(totals).toHaveTextContent(
      /Realised result\+0\.25 ETH\*.*ETH is assumed.* · 3 tokens, 1 flip−10 STRK · 1 token, 0 flips/,
    );
    expect(within(totals).getByRole('link', { name: 'Per collection' })).toHaveAttribute(
      'href',
      '#wallet-collections',
    );
    expect(screen.getByRole('heading', { name: 'Collections' })).toHaveAttribute(
      'id',
      'wallet-collections',
    );

    const cards = within(await screen.findByRole('list', { name: 'Collections' }))
      .getAllByRole('listitem')
      .filter((item) => item.parentElement?.getAttribute('aria-label') === 'Collections');
    expect(cards).toHaveLength(2);
    const [busy, quiet] = cards as [HTMLElement, HTMLElement];
    expect(within(busy).getByRole('link', { name: first.name! })).toHaveAttribute(
      'href',
      `/contracts/${first.address}`,
    );
    expect(busy).toHaveTextContent('Held now3 tokens');
    // One line per currency, never a sum across them.
    expect(busy).toHaveTextContent('2 sales · 1.5 ETH');
    expect(busy).toHaveTextContent('1 sale · 40 STRK');
    expect(busy).toHaveTextContent('Soldnone');
    expect(busy).toHaveTextContent(/Result\+0\.5 ETH\*.* · 2 tokens, 1 flip/);
    expect(quiet).toHaveTextContent('Result−0.25 ETH · 1 token, 0 flips');
    // A currency nobody knows: its base units and its short address.
    expect(quiet).toHaveTextContent('1 sale · 12,500 base units of 0xabc0…def1');
    expect(quiet).toHaveTextContent('Held now0 tokens');
    expect(
      within(quiet).getByRole('link', {
        name: /^In this collection: 2 events, .*holdings over time/,
      }),
    ).toHaveAttribute('href', `/addresses/${WALLET}?collection=${second.address}`);

    // The events, newest first, a page per server cursor: the table, near its end (seven
    // rows are all in view), asks for the next one.
    const table = await screen.findByRole('table', { name: 'Events of this wallet' });
    expect(within(table).getByRole('columnheader', { name: 'Collection' })).toBeInTheDocument();
    expect(dataRows()[0]).toHaveTextContent(first.name!);
    expect(dataRows()[0]).toHaveTextContent('0.5 ETH');
    await waitFor(() => expect(statusText()).toContain('all 10 events loaded'));
    expect(screen.getByText('End of the list.')).toBeInTheDocument();
    expect(api.requests).toContain(
      `/api/wallets/${WALLET}/events?limit=100&cursor=signed-cursor-1`,
    );
    expect(within(table).getByText('twelve ETH')).toBeInTheDocument();
    // Names come with the wallet: the service's contract list is never read for them.
    expect(api.requests.filter((path) => path.startsWith('/api/v1/contracts'))).toEqual([]);
    // Other addresses open as wallets; the wallet's own table has no filter to offer.
    expect(within(table).getAllByTitle(`${OTHER} — open this wallet`)[0]).toHaveAttribute(
      'href',
      `/addresses/${OTHER}`,
    );
    expect(within(table).queryAllByRole('link', { name: /^Show only/ })).toEqual([]);
  });

  it('filters by collection, the choice in the URL', async () => {
    const { api, second } = installWalletApi();
    const { router } = renderAt(`/addresses/${WALLET}`);
    await screen.findByRole('table', { name: 'Events of this wallet' });
    await userEvent.selectOptions(
      screen.getByRole('combobox', { name: 'Collection' }),
      second.name!,
    );
    await waitFor(() => expect(router.state.location.search).toBe(`?collection=${second.address}`));
    await waitFor(() => expect(statusText()).toContain('all 2 events loaded'));
    expect(api.requests).toContain(
      `/api/wallets/${WALLET}/events?collection=${second.address}&limit=100`,
    );
    // One collection: its name is the filter's, not a column.
    expect(screen.queryByRole('columnheader', { name: 'Collection' })).toBeNull();
  });

  it('says once that a wallet has no activity', async () => {
    installWalletApi({ empty: true });
    renderAt(`/addresses/${WALLET}`);
    expect(await screen.findByText('No activity for this wallet')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByText('No events')).toBeNull();
  });

  it('shows a failure with Retry, and recovers', async () => {
    installWalletApi({ failFirst: true });
    renderAt(`/addresses/${WALLET}`);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The dashboard’s server failed');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('list', { name: 'Collections' })).toBeInTheDocument();
  });

  it('keeps the loaded events when the next page fails, and Retry continues', async () => {
    installWalletApi({ failSecondPage: true });
    renderAt(`/addresses/${WALLET}`);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The 7 events already loaded are kept');
    expect(dataRows()).toHaveLength(7);
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(statusText()).toContain('all 10 events loaded'));
  });

  it('says so when the server’s answer cannot be read, instead of failing in a cell', async () => {
    installWalletApi({ unreadable: true });
    renderAt(`/addresses/${WALLET}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The dashboard’s server sent an answer it could not read.',
    );
  });

  it('says what is wrong with a malformed address', async () => {
    installSampleApi();
    renderAt('/addresses/0xnot-a-wallet');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(
      'This is not a wallet address',
    );
    expect(screen.getByRole('alert')).toHaveTextContent('An address is 0x');
  });
});

describe('wallet page, live', () => {
  const live = installFakeEventSource();
  const walletStream = () =>
    waitFor(
      () => {
        const found = live.stream(`/api/live/wallets/${WALLET}`);
        expect(found).toBeDefined();
        return found!;
      },
      { timeout: 10_000 },
    );

  it('puts a new change of hands at the top, marked new, once, and its figures follow', async () => {
    const { api, second } = installWalletApi();
    renderAt(`/addresses/${WALLET}`);
    await screen.findByRole('table', { name: 'Events of this wallet' });
    await waitFor(() => expect(statusText()).toContain('all 10 events loaded'));
    const stream = await walletStream();
    const figuresAsked = () =>
      api.requests.filter((path) => path === `/api/wallets/${WALLET}`).length;
    const before = figuresAsked();
    const arrival = { ...eventRow(0, second.address), id: '9999', key: '9999', tokenId: '4242' };
    arrival.timestamp = 1_751_000_000 + 60;
    stream.send('change', arrival);
    await waitFor(() => expect(dataRows()[0]).toHaveTextContent('4242'), { timeout: 10_000 });
    expect(dataRows()[0]).toHaveTextContent('New');
    expect(dataRows()[1]).not.toHaveTextContent('New');
    await waitFor(() => expect(figuresAsked()).toBeGreaterThan(before));
    await waitFor(() => expect(document.body).toHaveTextContent('1 new event'));
    // The same row again (a stream opened again) changes nothing.
    stream.send('change', arrival);
    stream.send('change', { ...arrival, id: '9998', key: '9998', tokenId: '4343' });
    await waitFor(() => expect(dataRows()[0]).toHaveTextContent('4343'));
    expect(dataRows().filter((each) => each.textContent?.includes('4242'))).toHaveLength(1);
  });

  it('leaves out a row of another collection than the one in view', async () => {
    const { first, second } = installWalletApi();
    renderAt(`/addresses/${WALLET}?collection=${second.address}`);
    await waitFor(() => expect(statusText()).toContain('all 2 events loaded'));
    const stream = await walletStream();
    const arrival = { ...eventRow(0, first.address), id: '9999', key: '9999', tokenId: '4242' };
    stream.send('change', arrival);
    stream.send('change', {
      ...arrival,
      contractAddress: second.address,
      key: '9998',
      id: '9998',
      tokenId: '4343',
    });
    await waitFor(() => expect(dataRows()[0]).toHaveTextContent('4343'), { timeout: 10_000 });
    expect(dataRows().filter((each) => each.textContent?.includes('4242'))).toHaveLength(0);
  });
});
