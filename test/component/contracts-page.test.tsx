import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RankedContract } from '../../src/lib/answers';
import { CURRENCIES, formatAmount, type Currency } from '../../src/lib/price';
import { currencyRef } from '../../src/server/index/figures';
import { matchingRanking, rankedBy } from '../../src/server/index/rankings';
import { errorResponse } from '../../src/server/proxy/error-response';
import { windowHolding } from '../../src/lib/ranking-view';
import { formatDay } from '../../src/lib/time';
import { installFakeEventSource } from './fake-event-source';
import { dataRows, installSampleApi, renderAt, statusText } from './harness';

/*
 * The collections ranking over the query API. The harness's proxy has no event index (no
 * database), so `GET /api/collections` is answered here, in the server's shape, by the
 * server's own ordering and search (src/server/index/rankings.ts) over made-up figures
 * that differ by window; cursors are positions, as opaque to the page as the server's.
 */
afterEach(() => {
  vi.restoreAllMocks();
  Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
});

const [ETH, , USDC] = CURRENCIES;
const A = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const NOW = Math.floor(Date.now() / 1000);

/** Seventy collections; the last two with nothing in any window, one not indexed at all. */
function collection(index: number, window: string): RankedContract {
  const recent = window === 'all' ? 1000 - index : ((index * 37) % 61) + 1;
  const empty = index >= 68;
  const events = empty ? 0 : recent;
  const sales = empty ? 0 : Math.floor(recent / 3);
  return {
    address: A(index + 1),
    name: index === 5 ? null : `Collection ${String(index).padStart(2, '0')}`,
    symbol: `C${index}`,
    image: null,
    type: 'ERC721',
    events,
    sales,
    volume: empty
      ? []
      : [
          { currency: currencyRef(hex(ETH!.address)), sales, volume: `${sales}000000000000000` },
          {
            currency: currencyRef(hex(USDC!.address)),
            sales: 1,
            volume: `${(index * 7919) % 1000}000000`,
          },
        ],
    holders: 10 + ((index * 13) % 50),
    lastActivity: empty && index === 69 ? null : NOW - index * 3600,
    complete: index !== 3 && index !== 69,
    indexedBack: index === 69 ? null : 1_700_000_000,
    washSales: 0,
  };
}
const hex = (address: string) => Buffer.from(address.slice(2), 'hex');

interface Options {
  /** Answers the first request with a 500. */
  failFirst?: boolean;
  /** Answers the request for the second page with a 500, once. */
  failSecondPage?: boolean;
  /** No collection listed at all. */
  none?: boolean;
  /** The server's faults, said with the answer. */
  faults?: string[];
  /** Nothing in any window but the whole history: the newest activity is 20 days old. */
  quiet?: boolean;
}

function installRankingApi(options: Options = {}) {
  const api = installSampleApi();
  let failFirst = options.failFirst ?? false;
  let failSecondPage = options.failSecondPage ?? false;
  api.intercept = (path) => {
    const url = new URL(path, 'http://localhost');
    if (url.pathname !== '/api/collections') return null;
    const get = (name: string) => url.searchParams.get(name);
    if (failFirst || (failSecondPage && get('cursor'))) {
      failFirst = false;
      if (get('cursor')) failSecondPage = false;
      return errorResponse({
        kind: 'internal',
        status: 500,
        message: 'The dashboard’s server failed to answer this request.',
      });
    }
    const window = get('window') ?? '7d';
    const sortText = get('sort') ?? '-events';
    const sort = {
      id: sortText.replace(/^-/, '') as 'events',
      desc: sortText.startsWith('-'),
    };
    const currency =
      CURRENCIES.find((c) => c.symbol === (get('currency') ?? 'ETH'))?.address ?? ETH!.address;
    const all = options.none ? [] : Array.from({ length: 70 }, (_, i) => collection(i, window));
    if (options.quiet) {
      for (const row of all) {
        row.lastActivity = NOW - 20 * 86_400 - Number(BigInt(row.address));
        if (window === '24h' || window === '7d') {
          Object.assign(row, { events: 0, sales: 0, volume: [] });
        }
      }
    }
    const matching = matchingRanking(all, get('q') ?? undefined);
    const rows = rankedBy(matching, sort, currency);
    const active = matching.filter((row) => row.events > 0).length;
    const newest = Math.max(...matching.map((row) => row.lastActivity ?? -1));
    const start = Number(get('cursor') ?? 0);
    const limit = Number(get('limit') ?? 100);
    const page = rows.slice(start, start + limit);
    const next = start + limit < rows.length ? String(start + limit) : null;
    return Response.json({
      window,
      sort: sortText,
      collections: page,
      next,
      active,
      newest: newest < 0 ? null : newest,
      nearest: active === 0 && newest >= 0 ? windowHolding(newest, NOW) : null,
      washSales: get('wash') === 'exclude' ? 0 : 4,
      washExcluded: get('wash') === 'exclude',
      faults: options.faults ?? [],
    });
  };
  const rankingRequests = () => api.requests.filter((p) => p.startsWith('/api/collections'));
  return { api, rankingRequests };
}

/** The order the server gives. */
const ranked = (window: string, id: 'sales' | 'volume', desc: boolean, currency: Currency) =>
  rankedBy(
    Array.from({ length: 70 }, (_, i) => collection(i, window)),
    { id, desc },
    currency.address,
  );

const table = () => screen.getByRole('table', { name: /^Collections ranked by/ });
const collectionNames = () =>
  dataRows().map((row) => within(row).queryAllByRole('link')[0]?.textContent ?? '');

describe('collections page', () => {
  it('says what it shows and where from, ranked by the server, each row a link', async () => {
    const { rankingRequests } = installRankingApi();
    const { router } = renderAt('/contracts');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(
      'NFT activity on Starknet',
    );
    await screen.findByRole('table', { name: 'Collections ranked by events' });
    await waitFor(() => expect(screen.getByText(/^Sample data/)).toBeInTheDocument());
    expect(rankingRequests()[0]).toBe('/api/collections?limit=50');
    expect(statusText()).toContain('50 collections loaded · more available');
    expect(statusText()).toContain('by events in the last 7 days');
    // The server's order: most events in the window first.
    const expected = rankedBy(
      Array.from({ length: 70 }, (_, i) => collection(i, '7d')),
      { id: 'events', desc: true },
      ETH!.address,
    );
    const first = dataRows()[0]!;
    expect(first).toHaveTextContent(expected[0]!.name!);
    expect(within(first).getByRole('link', { name: expected[0]!.name! })).toHaveAttribute(
      'href',
      `/contracts/${expected[0]!.address}`,
    );
    expect(within(table()).getByRole('columnheader', { name: /Events/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    expect(router.state.location.search).toBe('');
  });

  it('keeps the window, sort and currency in the URL and asks the server for them', async () => {
    const { rankingRequests } = installRankingApi();
    const { router } = renderAt('/contracts');
    await screen.findByRole('table');
    const before = collectionNames();

    await userEvent.click(screen.getByRole('button', { name: 'All time' }));
    await waitFor(() => expect(router.state.location.search).toBe('?window=all'));
    await waitFor(() => expect(collectionNames()[0]).toBe('Collection 00'));
    expect(collectionNames()).not.toEqual(before);
    expect(rankingRequests()).toContain('/api/collections?window=all&limit=50');
    expect(screen.getByRole('button', { name: 'All time' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    // A sort header, by keyboard: focus stays on it while the new order comes.
    const sales = within(table()).getByRole('columnheader', { name: /Sales/ });
    act(() => within(sales).getByRole('button').focus());
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?sort=-sales&window=all'));
    await waitFor(() => expect(sales).toHaveAttribute('aria-sort', 'descending'));
    expect(document.activeElement).toBe(within(sales).getByRole('button'));
    expect(rankingRequests()).toContain('/api/collections?sort=-sales&window=all&limit=50');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?sort=sales&window=all'));
    // Ascending: the least active first, never those with nothing in the window.
    await waitFor(() => expect(statusText()).toContain('by sales over their whole history'));
    expect(collectionNames()[0]).toBe(ranked('all', 'sales', false, ETH!)[0]!.name);
    expect(collectionNames()[0]).not.toMatch(/Collection 6[89]/);

    await userEvent.click(screen.getByRole('button', { name: 'USDC' }));
    await waitFor(() =>
      expect(router.state.location.search).toBe('?currency=USDC&sort=sales&window=all'),
    );
    expect(within(table()).getByRole('columnheader', { name: /Volume \(USDC\)/ })).toBeVisible();
    expect(rankingRequests()).toContain(
      '/api/collections?currency=USDC&sort=sales&window=all&limit=50',
    );
    // Volumes in the currency's own decimals.
    await userEvent.click(within(table()).getByRole('button', { name: /Volume/ }));
    await waitFor(() => expect(router.state.location.search).toContain('sort=-volume'));
    const top = ranked('all', 'volume', true, USDC!)[0]!;
    await waitFor(() => expect(dataRows()[0]).toHaveTextContent(top.name!));
    const units = BigInt(top.volume.find((v) => v.currency.symbol === 'USDC')!.volume);
    expect(dataRows()[0]).toHaveTextContent(`${formatAmount(units, 6)} USDC`);
  });

  it('replaces a URL with unknown or non-canonical values by the canonical one', async () => {
    installRankingApi();
    const { router } = renderAt('/contracts?window=1y&sort=size&currency=DOGE&colour=red');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await screen.findByRole('table', { name: 'Collections ranked by events' });

    const other = renderAt('/contracts?currency=usdc&sort=-events&window=24H&q=%20pixel%20');
    await waitFor(() =>
      expect(other.router.state.location.search).toBe('?currency=USDC&q=pixel&window=24h'),
    );
  });

  it('reads the next page when the table is scrolled near its end, and says the end', async () => {
    const { rankingRequests } = installRankingApi();
    renderAt('/contracts');
    await screen.findByRole('table');
    expect(rankingRequests()).toHaveLength(1);
    act(() => {
      Object.defineProperty(window, 'scrollY', { value: 50 * 56, configurable: true });
      fireEvent.scroll(window);
    });
    await waitFor(() => expect(statusText()).toContain('all 70 collections'));
    expect(rankingRequests()[1]).toBe('/api/collections?limit=50&cursor=50');
    expect(screen.getByText('End of the list.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('keeps the loaded rows when a next page fails, and Retry continues', async () => {
    installRankingApi({ failSecondPage: true });
    renderAt('/contracts');
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The 50 collections already loaded are kept');
    expect(dataRows().length).toBeGreaterThan(0);
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(statusText()).toContain('all 70 collections'));
  });

  it('searches the whole ranking on the server, and says when nothing matches', async () => {
    const { rankingRequests } = installRankingApi();
    const { router } = renderAt('/contracts');
    await screen.findByRole('table');
    const box = screen.getByRole('searchbox', { name: 'Search collections' });
    // Collection 69 is on no loaded page: the server finds it.
    await userEvent.type(box, 'collection 69');
    await waitFor(() => expect(router.state.location.search).toBe('?q=collection+69'));
    await waitFor(() => expect(collectionNames()).toEqual(['Collection 69']));
    expect(rankingRequests()).toContain('/api/collections?q=collection+69&limit=50');
    // Not indexed: no figure pretends to be zero.
    const row = dataRows()[0]!;
    expect(row).toHaveTextContent('not indexed yet');
    expect(within(row).getAllByTitle('Not indexed yet').length).toBeGreaterThan(2);

    await userEvent.clear(box);
    await userEvent.type(box, 'zzz{Enter}');
    expect(await screen.findByText('No collection matches “zzz”')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear the search' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(box).toHaveValue('');
  });

  it('says how far back a collection still being indexed is read', async () => {
    installRankingApi();
    renderAt('/contracts?q=C3');
    await waitFor(() => expect(collectionNames()).toContain('Collection 03'));
    const row = dataRows().find((r) => r.textContent?.includes('Collection 03'))!;
    expect(row).toHaveTextContent('indexing · back to 14 Nov 2023');
  });

  it('opens a collection by a click on its row, and by j and Enter', async () => {
    installRankingApi();
    const first = renderAt('/contracts?window=all');
    await waitFor(() => expect(collectionNames()[0]).toBe('Collection 00'));
    await userEvent.click(within(dataRows()[1]!).getByText('C1'));
    await waitFor(() => expect(first.router.state.location.pathname).toBe(`/contracts/${A(2)}`));
    first.unmount();

    const second = renderAt('/contracts?window=all');
    await waitFor(() => expect(collectionNames()[0]).toBe('Collection 00'));
    await userEvent.keyboard('jj{Enter}');
    await waitFor(() => expect(second.router.state.location.pathname).toBe(`/contracts/${A(2)}`));
  });

  it('says when no collection is listed yet', async () => {
    installRankingApi({ none: true });
    renderAt('/contracts');
    expect(await screen.findByText('No collections yet')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says why nothing is fresh when the server cannot read the service', async () => {
    const refused =
      'The Token Events Service refused the server’s API key. Check TOKEN_EVENTS_API_KEY. ' +
      'Nothing new can be read; answers come from stored data.';
    installRankingApi({ none: true, faults: [refused] });
    renderAt('/contracts');
    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent('Not fresh: the server cannot read new data now');
    expect(note).toHaveTextContent(refused);
    expect(screen.getByText('No collections yet')).toBeInTheDocument();
  });

  it('shows a failure with Retry, and recovers', async () => {
    installRankingApi({ failFirst: true });
    renderAt('/contracts');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The dashboard’s server failed');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table')).toBeInTheDocument();
  });

  it('says when a window has no activity, when the newest is, and offers the windows that hold it', async () => {
    installRankingApi({ quiet: true });
    const { router } = renderAt('/contracts');
    await screen.findByRole('table');
    const quiet = await screen.findByText(/^No activity in the last 7 days: the newest is from/);
    expect(quiet).toHaveTextContent(formatDay(NOW - 20 * 86_400 - 1));
    await userEvent.click(
      screen.getByRole('button', { name: 'Show activity in the last 30 days' }),
    );
    await waitFor(() => expect(router.state.location.search).toBe('?window=30d'));
    await waitFor(() => expect(statusText()).toContain('by events in the last 30 days'));
    expect(screen.queryByText(/^No activity/)).toBeNull();
  });

  it('leaves flagged sales out of the ranking with its switch, in the URL and the request', async () => {
    const { rankingRequests } = installRankingApi();
    const { router } = renderAt('/contracts');
    await screen.findByRole('table');
    const toggle = screen.getByRole('switch', { name: 'Leave flagged sales out' });
    await waitFor(() => expect(toggle).toHaveAccessibleDescription(/^4 sales flagged/));
    await userEvent.click(toggle);
    await waitFor(() => expect(router.state.location.search).toBe('?wash=exclude'));
    await waitFor(() => expect(rankingRequests().at(-1)).toContain('wash=exclude'));
    expect(toggle).toBeChecked();
  });
});

describe('collections page, live', () => {
  const live = installFakeEventSource();

  it('asks for the ranking again when collections have new rows, and marks them updated', async () => {
    const { rankingRequests } = installRankingApi();
    renderAt('/contracts');
    await screen.findByRole('table', { name: 'Collections ranked by events' });
    await waitFor(() => expect(dataRows().length).toBeGreaterThan(2));
    const stream = await waitFor(() => {
      const found = live.stream('/api/live/collections');
      expect(found).toBeDefined();
      return found!;
    });
    const before = rankingRequests().length;
    expect(screen.queryByText('Updated')).toBeNull();
    const first = dataRows()[0];
    const address = (row: HTMLElement) =>
      within(row).getAllByRole('link')[0]!.getAttribute('href')!.split('/').at(-1)!;
    stream.send('changed', { collections: [address(first!)] });
    await waitFor(() => expect(rankingRequests().length).toBeGreaterThan(before), {
      timeout: 10_000,
    });
    await waitFor(() => expect(within(dataRows()[0]!).getByText('Updated')).toBeVisible());
    expect(within(dataRows()[1]!).queryByText('Updated')).toBeNull();
  });
});
