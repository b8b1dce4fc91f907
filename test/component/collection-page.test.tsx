import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  busiestContract,
  dataRows,
  failFirst,
  renderAt,
  smallDataset,
  statusText,
} from './harness';
import { expectWalletAndFilter } from './address-links';
import type { EventRow } from '../../src/lib/answers';
import { installFakeEventSource } from './fake-event-source';
import { indexedApiForTests } from './indexed-api';

/**
 * A collection's page over the query API: every row, figure, filter and sort is the
 * server's answer over the whole indexed history, paged by the server's cursor, and the
 * URL holds the view so the same URL shows the same rows in the same order.
 */
const install = indexedApiForTests();
const contract = busiestContract();
const page = `/contracts/${contract.address}`;
const live = installFakeEventSource();

/** The collection's newest change of hands, as the server answers it. */
const newestEvent = async (api: Awaited<ReturnType<typeof install>>) =>
  (
    (await api.answer(`/api/collections/${contract.address}/events?limit=1`)) as {
      events: EventRow[];
    }
  ).events[0]!;
/** The live stream the page opened. */
const liveStream = () =>
  waitFor(
    () => {
      const stream = live.stream(`/api/live/collections/${contract.address}`);
      expect(stream).toBeDefined();
      return stream!;
    },
    { timeout: 10_000 },
  );

/** The table's requests (the sales chart asks for its own page of sales). */
const eventsRequests = (requests: string[]) =>
  requests.filter(
    (path) =>
      path.startsWith(`/api/collections/${contract.address}/events`) && path.includes('limit=100'),
  );

/** The visible rows' token ids and times, in order: what "the same rows" means. */
const rowKeys = () =>
  dataRows().map((row) => {
    const cells = row.querySelectorAll('td');
    return `${cells[1]?.textContent}|${row.querySelector('time')?.getAttribute('datetime')}`;
  });

describe('the collection page', () => {
  it('shows the whole-history figures and the events newest first, the next page on demand', async () => {
    const api = await install({ indexed: [contract.address] });
    const overview = (await api.answer(`/api/collections/${contract.address}`)) as {
      figures: { events: number; holders: number };
    };
    renderAt(page);
    await screen.findByRole('table', { name: 'Events of this collection' });
    // The figures and the rows come in either order.
    const figures = screen.getByText('Events').closest('div')!;
    await waitFor(() =>
      expect(figures).toHaveTextContent(overview.figures.events.toLocaleString('en')),
    );
    expect(screen.getByText('Holders', { selector: 'dt' }).closest('div')).toHaveTextContent(
      overview.figures.holders.toLocaleString('en'),
    );
    await waitFor(() => expect(statusText()).toContain('Whole history indexed'));
    await waitFor(() =>
      expect(statusText()).toContain(
        `100 of ${overview.figures.events.toLocaleString('en')} events shown`,
      ),
    );
    const times = dataRows().map((row) =>
      Date.parse(row.querySelector('time')!.getAttribute('datetime')!),
    );
    expect(times).toEqual([...times].sort((a, b) => b - a));

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(statusText()).toContain('200 of'));
    const [first, second] = eventsRequests(api.requests);
    expect(first).not.toContain('cursor=');
    expect(second).toMatch(/cursor=/);
  });

  it('filters on the server and keeps the filter in the URL; no match offers a reset', async () => {
    const api = await install({ indexed: [contract.address] });
    const { router } = renderAt(page);
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('button', { name: 'Sale' }));
    await waitFor(() => expect(router.state.location.search).toBe('?kind=sale'));
    await waitFor(() => expect(eventsRequests(api.requests).at(-1)).toContain('kind=sale'));
    await waitFor(() =>
      expect(dataRows().every((row) => within(row).queryByText('Sale', { selector: 'span' }))).toBe(
        true,
      ),
    );

    await userEvent.type(screen.getByLabelText('Sender or receiver'), `0x${'9'.repeat(63)}`);
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await screen.findByText('No event matches the filters');
    await userEvent.click(screen.getByRole('button', { name: 'Reset filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await screen.findByRole('table');
  });

  it('opens a row’s address as a wallet; the filter button beside it narrows the table in place', async () => {
    await install({ indexed: [contract.address] });
    const { router } = renderAt(page);
    await screen.findByRole('table', { name: 'Events of this collection' });
    expect(expectWalletAndFilter(contract.address, /^Show only events with 0x/)).toBeGreaterThan(
      10,
    );
    const filter = within(dataRows()[0]!).getAllByRole('link', {
      name: /^Show only events with/,
    })[0]!;
    const address = filter.getAttribute('aria-label')!.split(' ').at(-1)!;
    filter.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe(`?address=${address}`));
    const wallet = await waitFor(() => {
      const link = within(dataRows()[0]!).getAllByTitle(`${address} — open this wallet`)[0]!;
      return link;
    });
    await userEvent.click(wallet);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/addresses/${address}`));
  });

  it('says an address is no collection, with its wallet’s page when the index has seen it', async () => {
    const api = await install({ indexed: [contract.address] });
    const events = (await api.answer(`/api/collections/${contract.address}/events?limit=5`)) as {
      events: { to: string }[];
    };
    const wallet = events.events.find((event) => !/^0x0+$/.test(event.to))!.to;
    const { unmount } = renderAt(`/contracts/${wallet}`);
    // The first answer reads the contracts list whole: a bound on a hang, not a wait.
    const alert = await screen.findByRole(
      'alert',
      { name: 'Not a collection' },
      { timeout: 20_000 },
    );
    expect(alert).toHaveTextContent(
      `${wallet} is not a collection the Token Events Service lists.`,
    );
    expect(
      await within(alert).findByRole('link', { name: 'open its wallet page' }),
    ).toHaveAttribute('href', `/addresses/${wallet}`);
    // None of a collection's page: no figures, no chart, no table.
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByText('Whole history indexed')).not.toBeInTheDocument();
    await waitFor(() => expect(document.title).toMatch(/^Not a collection/));
    unmount();

    renderAt('/contracts/0x1');
    const unknown = await screen.findByRole('alert', { name: 'Not a collection' });
    await waitFor(() => expect(api.requests).toContain(`/api/lookup/0x${'0'.repeat(63)}1`));
    expect(within(unknown).queryByRole('link', { name: 'open its wallet page' })).toBeNull();
  });

  it('sorts by price on the server, says how currencies are ordered, and a reload shows the same rows', async () => {
    const api = await install({ indexed: [contract.address] });
    const first = renderAt(page);
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('button', { name: /Price/ }));
    await waitFor(() => expect(first.router.state.location.search).toBe('?sort=-price'));
    await waitFor(() => expect(eventsRequests(api.requests).at(-1)).toContain('sort=-price'));
    await waitFor(() => expect(statusText()).toMatch(/currenc/i));
    const shown = rowKeys();
    expect(shown.length).toBeGreaterThan(10);
    first.unmount();

    // A fresh tab (no cache) from the same URL.
    renderAt(`${page}?sort=-price`);
    await screen.findByRole('table');
    await waitFor(() => expect(rowKeys()).toEqual(shown));
  });

  it('says what is indexed while the indexer has not read the collection', async () => {
    const api = await install();
    api.intercept = (path) =>
      path.startsWith(`/api/collections/${contract.address}/events`)
        ? Response.json({ events: [], next: null })
        : null;
    renderAt(page);
    await screen.findByText('No events');
    expect(
      screen.getByText(/indexer is reading|None indexed yet|Nothing indexed yet/),
    ).toBeInTheDocument();
  });

  it('a failed page says which side failed and Retry brings the rows', async () => {
    const api = await install({ indexed: [contract.address] });
    failFirst(api, (path) => path.includes('/events') && path.includes('limit=100'));
    renderAt(page);
    expect((await screen.findAllByText(/dashboard’s server failed/)).length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByRole('table');
  });

  it('puts a live row at the top of a newest-first view, announced, each row once', async () => {
    const api = await install({ indexed: [contract.address] });
    const top = await newestEvent(api);
    renderAt(page);
    await screen.findByRole('table', {}, { timeout: 15_000 });
    const stream = await liveStream();
    const row = {
      ...top,
      id: '999999999',
      key: '999999999',
      tokenId: '424242',
      timestamp: top.timestamp + 60,
    };
    stream.send('change', row);
    await waitFor(() => expect(dataRows()[0]).toHaveTextContent('424242'), { timeout: 10_000 });
    expect(dataRows()[1]).not.toHaveTextContent('424242');
    await waitFor(() => expect(document.body).toHaveTextContent('1 new event'));
    // The same row again (a stream opened again) changes nothing.
    stream.send('change', row);
    stream.send('change', { ...row, id: '999999990', key: '999999990', tokenId: '434343' });
    await waitFor(() => expect(dataRows()[0]).toHaveTextContent('434343'));
    expect(dataRows().filter((each) => each.textContent?.includes('424242'))).toHaveLength(1);
  });

  it('offers the live rows of another sort, and reads the view again on request', async () => {
    const api = await install({ indexed: [contract.address] });
    const top = await newestEvent(api);
    renderAt(`${page}?sort=-token`);
    await screen.findByRole('table', {}, { timeout: 15_000 });
    const stream = await liveStream();
    const firstRow = dataRows()[0]!.textContent;
    stream.send('change', {
      ...top,
      id: '999999998',
      key: '999999998',
      timestamp: top.timestamp + 60,
    });
    stream.send('change', {
      ...top,
      id: '999999999',
      key: '999999999',
      timestamp: top.timestamp + 61,
    });
    const offer = await screen.findByRole(
      'button',
      { name: 'Show 2 new events' },
      { timeout: 10_000 },
    );
    expect(dataRows()[0]!.textContent).toBe(firstRow);
    await userEvent.click(offer);
    await waitFor(() => expect(screen.queryByRole('button', { name: /new events/ })).toBeNull());
    await screen.findByRole('table', {}, { timeout: 15_000 });
  });

  it('counts the live rows after a past span, and makes the span end now on request', async () => {
    const api = await install({ indexed: [contract.address] });
    const top = await newestEvent(api);
    const { router } = renderAt(`${page}?from=2024-01-01&to=2024-02-01`);
    await screen.findByRole('table', {}, { timeout: 15_000 });
    const stream = await liveStream();
    const firstRow = dataRows()[0]!.textContent;
    const arrival = Math.floor(Date.now() / 1000);
    stream.send('change', { ...top, id: '999999999', key: '999999999', timestamp: arrival });
    const offer = await screen.findByRole(
      'button',
      { name: 'Show 1 new event' },
      { timeout: 10_000 },
    );
    expect(dataRows()[0]!.textContent).toBe(firstRow);
    await userEvent.click(offer);
    // The span keeps its start and ends after the arrival: the next UTC midnight.
    const next = new Date((Math.floor(arrival / 86_400) + 1) * 86_400_000).toISOString();
    await waitFor(() =>
      expect(router.state.location.search).toBe(`?from=2024-01-01&to=${next.slice(0, 10)}`),
    );
    expect(screen.queryByRole('button', { name: /new event/ })).toBeNull();
  });

  it.each([
    ['an address', `?address=0x${'4'.repeat(64)}&sort=-token`],
    ['a token', '?token=1&sort=-token'],
  ])('offers no live row where it cannot belong: %s', async (_name, search) => {
    const api = await install({ indexed: [contract.address] });
    const top = await newestEvent(api);
    renderAt(`${page}${search}`);
    const stream = await liveStream();
    const eventPages = () => api.requests.filter((path) => path.includes('/events?')).length;
    await waitFor(() => expect(eventPages()).toBeGreaterThan(0), { timeout: 15_000 });
    const before = eventPages();
    stream.send('change', { ...top, id: '999999999', key: '999999999', tokenId: '7' });
    // Then a reset, which loads the view again: once it has, the row before it was taken.
    stream.send('reset', {});
    await waitFor(() => expect(eventPages()).toBeGreaterThan(before), { timeout: 10_000 });
    expect(screen.queryByRole('button', { name: /new event/ })).toBeNull();
  });

  it('marks each sale naming no currency ETH*, with its note, and says once how many there are', async () => {
    const api = await install({ indexed: [contract.address] });
    const overview = (await api.answer(`/api/collections/${contract.address}`)) as {
      figures: { assumedSales: number };
    };
    const unnamed = overview.figures.assumedSales;
    expect(unnamed).toBeGreaterThan(0);
    renderAt(`${page}?currency=none`);
    await screen.findByRole('table');
    await waitFor(() => expect(dataRows().length).toBeGreaterThan(0));
    for (const row of dataRows()) {
      expect(row).toHaveTextContent(/ETH\*/);
      expect(within(row).getByText('*')).toHaveAccessibleDescription(/ETH is assumed/);
    }
    expect(
      await screen.findByText(`${unnamed.toLocaleString('en')} sales named no currency`, {
        exact: false,
      }),
    ).toHaveTextContent(/counts? in ETH/);
  });

  it('marks a sale the index flags as a possible wash trade, with its reasons', async () => {
    const api = await install({ indexed: [contract.address] });
    const real = (await api.answer(
      `/api/collections/${contract.address}/events?kind=sale&limit=100`,
    )) as { events: Record<string, unknown>[]; next: string | null };
    api.intercept = (path) => {
      if (!path.includes('/events?') || !path.includes('limit=100')) return null;
      const answer = structuredClone(real);
      answer.events[0]!.washFlags = ['The buyer is the seller.'];
      delete answer.events[1]!.washFlags;
      return Response.json(answer);
    };
    renderAt(`${page}?kind=sale`);
    await screen.findByRole('table');
    const [first, second] = dataRows();
    expect(within(first!).getByText('wash?')).toBeInTheDocument();
    expect(first).toHaveTextContent('Possible wash trade: The buyer is the seller.');
    expect(within(second!).queryByText('wash?')).toBeNull();
  });

  it('a switch leaves flagged sales out of every figure, chart, row and export, and the URL keeps it', async () => {
    // A dataset whose busiest collection has sales the rules flag.
    const flagging = busiestContract(smallDataset(9));
    const api = await install({ seed: 9, indexed: [flagging.address] });
    type Answer = { figures: { sales: number; washSales: number } };
    const base = `/api/collections/${flagging.address}`;
    const all = (await api.answer(base)) as Answer;
    const without = (await api.answer(`${base}?wash=exclude`)) as Answer;
    expect(without.figures.sales).toBe(all.figures.sales - all.figures.washSales);
    expect(all.figures.washSales).toBeGreaterThan(0);
    const { router } = renderAt(`/contracts/${flagging.address}`);
    await screen.findByRole('table');
    const toggle = screen.getByRole('switch', { name: 'Leave flagged sales out' });
    expect(toggle).not.toBeChecked();
    const count = `${all.figures.washSales.toLocaleString('en')} sale`;
    await waitFor(() => expect(toggle).toHaveAccessibleDescription(new RegExp(`^${count}`)));
    const sales = () => screen.getByText('Sales', { selector: 'dt' }).closest('div');
    await waitFor(() => expect(sales()).toHaveTextContent(all.figures.sales.toLocaleString('en')));

    const before = api.requests.length;
    await userEvent.click(toggle);
    await waitFor(() => expect(router.state.location.search).toBe('?wash=exclude'));
    expect(toggle).toBeChecked();
    await waitFor(() =>
      expect(sales()).toHaveTextContent(without.figures.sales.toLocaleString('en')),
    );
    const asked = api.requests.slice(before);
    // The figures, the table, both charts: each request carries it.
    await waitFor(() => {
      const latest = api.requests.slice(before);
      expect(latest).toContain(`${base}?wash=exclude`);
      expect(latest.filter((path) => path.startsWith(`${base}/series`)).length).toBeGreaterThan(0);
    });
    for (const path of [...asked, ...api.requests.slice(before)]) {
      if (path.startsWith(base)) expect(path).toContain('wash=exclude');
    }
    for (const name of ['Export CSV', 'Export JSON']) {
      expect(screen.getByRole('link', { name })).toHaveAttribute(
        'href',
        expect.stringContaining('wash=exclude'),
      );
    }

    // By keyboard, back to every sale.
    toggle.focus();
    await userEvent.keyboard(' ');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(sales()).toHaveTextContent(all.figures.sales.toLocaleString('en')));
  });
});
