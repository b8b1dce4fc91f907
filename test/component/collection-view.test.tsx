import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { busiestContract, dataRows, renderAt, smallDataset, statusText } from './harness';
import { indexedApiForTests } from './indexed-api';

/**
 * A collection's page as its view sets it: the order of its rows both ways, the headers
 * saying which order is shown; the flagged sales listed alone; the view's own figures
 * beside the whole history's, and the status counting the rows the view lists.
 */
const install = indexedApiForTests();
const contract = busiestContract();
const page = `/contracts/${contract.address}`;

const rowTimes = () =>
  dataRows().map((row) => Date.parse(row.querySelector('time')!.getAttribute('datetime')!));
/**
 * The events table once shown. The bound is on a hang, not a wait: the page's first
 * render loads its lazy chunk, slow on a busy machine.
 */
const eventsTable = () =>
  screen.findByRole('table', { name: 'Events of this collection' }, { timeout: 20_000 });
const timeHeader = () => screen.getByRole('columnheader', { name: /Time/ });

describe('the collection page’s order', () => {
  it('sorts by time both ways, the header saying which, the default one too', async () => {
    const api = await install({ indexed: [contract.address] });
    const { router } = renderAt(page);
    await eventsTable();
    expect(timeHeader()).toHaveAttribute('aria-sort', 'descending');

    await userEvent.click(screen.getByRole('button', { name: /Time/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=time'));
    await waitFor(() =>
      expect(api.requests.filter((path) => path.includes('/events?')).at(-1)).toContain(
        'sort=time',
      ),
    );
    await waitFor(() => {
      const times = rowTimes();
      expect(times.length).toBeGreaterThan(10);
      expect(times).toEqual([...times].sort((a, b) => a - b));
    });
    expect(timeHeader()).toHaveAttribute('aria-sort', 'ascending');

    await userEvent.click(screen.getByRole('button', { name: /Time/ }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(timeHeader()).toHaveAttribute('aria-sort', 'descending'));
    await waitFor(() => {
      const times = rowTimes();
      expect(times).toEqual([...times].sort((a, b) => b - a));
    });
  });
});

describe('the collection page’s flagged sales', () => {
  it('lists the flagged sales alone from the line that counts them, and every event again', async () => {
    // A dataset whose busiest collection has sales the rules flag.
    const flagging = busiestContract(smallDataset(9));
    const api = await install({ seed: 9, indexed: [flagging.address] });
    const base = `/api/collections/${flagging.address}`;
    const all = (await api.answer(base)) as { figures: { events: number; washSales: number } };
    expect(all.figures.washSales).toBeGreaterThan(0);
    const { router } = renderAt(`/contracts/${flagging.address}`);
    await eventsTable();
    await screen.findByText(new RegExp(`^${all.figures.washSales} sales? flagged as possible`));

    await userEvent.click(screen.getByRole('button', { name: 'List flagged sales' }));
    await waitFor(() => expect(router.state.location.search).toBe('?wash=only'));
    await waitFor(() => expect(statusText()).toMatch(/shown/));
    await waitFor(() => expect(dataRows()).toHaveLength(all.figures.washSales));
    for (const row of dataRows()) expect(within(row).getByText('wash?')).toBeInTheDocument();
    const line = await screen.findByLabelText('This view');
    await waitFor(() =>
      expect(line).toHaveTextContent(
        `${all.figures.washSales} of ${all.figures.events.toLocaleString('en')} events`,
      ),
    );
    for (const name of ['Export CSV', 'Export JSON']) {
      expect(screen.getByRole('link', { name })).toHaveAttribute(
        'href',
        expect.stringContaining('wash=only'),
      );
    }

    await userEvent.click(screen.getByRole('button', { name: 'Show every event' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(screen.queryByLabelText('This view')).toBeNull());
  }, 60_000);
});

describe('the collection page’s figures under a filter', () => {
  it('shows the view’s own counts beside the whole history’s, and the status counts the same rows', async () => {
    const api = await install({ indexed: [contract.address] });
    const base = `/api/collections/${contract.address}`;
    const all = (await api.answer(base)) as { figures: { events: number; sales: number } };
    const first = (await api.answer(`${base}/events?limit=1`)) as { events: { to: string }[] };
    const wallet = first.events[0]!.to;
    const view = (await api.answer(`${base}/figures?address=${wallet}`)) as {
      figures: { events: number; sales: number };
    };
    expect(view.figures.events).toBeLessThan(all.figures.events);
    renderAt(`${page}?address=${wallet}`);
    await eventsTable();
    const line = await screen.findByLabelText('This view');
    await waitFor(() =>
      expect(line).toHaveTextContent(
        `${view.figures.events.toLocaleString('en')} of ${all.figures.events.toLocaleString('en')} events · ` +
          `${view.figures.sales.toLocaleString('en')} of ${all.figures.sales.toLocaleString('en')} sales`,
      ),
    );
    await waitFor(() => expect(statusText()).toMatch(/shown/));
    const count = view.figures.events;
    expect(statusText()).toContain(
      count > 100 ? `100 of ${count.toLocaleString('en')} events shown` : `${count} event`,
    );
  });

  it('a price sort says how many priced sales it lists', async () => {
    const api = await install({ indexed: [contract.address] });
    const view = (await api.answer(`/api/collections/${contract.address}/figures`)) as {
      figures: { priced: number };
    };
    renderAt(`${page}?sort=-price`);
    await eventsTable();
    await waitFor(() =>
      expect(statusText()).toContain(
        `100 of ${view.figures.priced.toLocaleString('en')} priced sales shown`,
      ),
    );
  });
});
