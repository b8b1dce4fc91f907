import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { servedEventCount, servedRecordCount, type Dataset } from '../../src/server/sample-service';
import {
  advanceUntil,
  dataRows,
  FAKE_TIMERS,
  installSampleApi,
  renderAt,
  smallDataset,
  statusText,
} from './harness';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** The contract with the most events, and one with between `min` and `max`. */
function contractWith(dataset: Dataset, min: number, max = Infinity) {
  const found = [...dataset.contracts]
    .filter((contract) => contract.eventCount >= min && contract.eventCount <= max)
    .sort((a, b) => b.eventCount - a.eventCount)[0];
  if (!found) throw new Error(`no contract with ${min}..${max} events`);
  return found;
}

async function loadToTheEnd() {
  for (let clicks = 0; clicks < 200; clicks++) {
    const button = screen.queryByRole('button', { name: /load more|loading/i });
    if (!button) return;
    if (!button.hasAttribute('disabled')) await userEvent.click(button);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Loading…' })).toBeNull(), {
      timeout: 10_000,
    });
  }
  throw new Error('the list never ended');
}

describe('contract events page', () => {
  it('pages with the cursor until all events are loaded (documented profile)', async () => {
    const contract = contractWith(smallDataset(), 900, 1000);
    installSampleApi({ profile: 'documented' });
    renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table', { name: 'Events of this contract' });
    expect(statusText()).toContain('100 events loaded · more available');
    await loadToTheEnd();
    expect(statusText()).toContain(`all ${contract.eventCount} events loaded`);
    expect(screen.getByText('End of the list.')).toBeInTheDocument();
  }, 60_000);

  it('keeps going through empty pages that carry a cursor (deployed profile)', async () => {
    const dataset = smallDataset();
    const contract = contractWith(dataset, 900, 1000);
    const api = installSampleApi({ profile: 'deployed' });
    renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    await loadToTheEnd();
    // One row per change of hands the deployed list serves: each sale's two records (its
    // transfer and the sale record) joined, burns never listed.
    const events = servedEventCount(dataset, 'deployed', { contract });
    expect(statusText()).toContain(`all ${events.toLocaleString('en')} events loaded`);
    const served = servedRecordCount(dataset, 'deployed', { contract });
    // The deployed profile serves some empty pages with a cursor along the way: more
    // requests than the rows it reads (its records and the burns it leaves out) would fill.
    let burns = 0;
    for (let n = 0; n < contract.eventCount; n++) {
      if (dataset.kind(contract.firstEvent + n) === 'burn') burns++;
    }
    expect(api.requests.length).toBeGreaterThan(Math.ceil((served + burns) / 100));
  }, 60_000);

  it('keeps loaded rows when a next page fails, and retries from the same cursor without duplicates', async () => {
    const contract = contractWith(smallDataset(), 250);
    const api = installSampleApi({ profile: 'documented' });
    renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    api.service.setFaults({ fault: { type: 'status', status: 502 }, nth: 1, times: 1 });
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('The service failed')).toBeInTheDocument();
    expect(screen.getByText(/The 100 events already loaded are kept/)).toBeInTheDocument();
    expect(statusText()).toContain('100 events loaded');
    const failedUrl = api.requests.at(-1);
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(statusText()).toContain('200 events loaded'));
    expect(api.requests.at(-1)).toBe(failedUrl);
  });

  it.each([
    [{ type: 'status', status: 403 } as const, 'The service refused our key'],
    [
      { type: 'status', status: 502, message: 'Internal server error' } as const,
      'The service failed',
    ],
    [{ type: 'malformed-json' } as const, 'The service sent something unreadable'],
    [{ type: 'truncated' } as const, 'The service sent something unreadable'],
  ])('explains a failed first page: %j', async (fault, title) => {
    const contract = contractWith(smallDataset(), 1);
    installSampleApi({ faults: { fault } });
    renderAt(`/contracts/${contract.address}`);
    expect(await screen.findByText(title)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('explains a dropped connection and an upstream timeout', async () => {
    // Each is retried once after a second, and the timeout takes the proxy's second:
    // fake timers let those seconds pass at once.
    vi.useFakeTimers(FAKE_TIMERS);
    const contract = contractWith(smallDataset(), 1);
    const api = installSampleApi({ faults: { fault: { type: 'drop' } } });
    const first = renderAt(`/contracts/${contract.address}`);
    await advanceUntil(() =>
      expect(screen.getByText('The service cannot be reached')).toBeInTheDocument(),
    );
    first.unmount();
    api.service.setFaults({ latencyMs: 1500 });
    renderAt(`/contracts/${contract.address}`);
    await advanceUntil(() =>
      expect(screen.getByText('The service took too long')).toBeInTheDocument(),
    );
  });

  it('retries a rate limit by itself and shows the wait', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    const contract = contractWith(smallDataset(), 1);
    installSampleApi({
      faults: {
        fault: { type: 'status', status: 429, message: 'Too Many Requests', retryAfterSeconds: 1 },
        nth: 1,
        times: 1,
        pathIncludes: '/v1/events/',
      },
    });
    renderAt(`/contracts/${contract.address}`);
    await advanceUntil(() =>
      expect(screen.getByText(/Retrying automatically in 1 s/)).toBeInTheDocument(),
    );
    await advanceUntil(() => expect(screen.getByRole('table')).toBeInTheDocument());
  });

  it('filters by event kind and by address, and keeps both in the URL', async () => {
    const contract = contractWith(smallDataset(), 100);
    installSampleApi({ profile: 'documented' });
    const { router } = renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('button', { name: 'Transfer' }));
    expect(router.state.location.search).toBe('?kind=transfer');
    for (const row of dataRows())
      expect(within(row).getAllByRole('cell')[0]).toHaveTextContent('Transfer');

    const firstRow = dataRows()[0]!;
    // The filter is a link to the filtered view; a plain click applies it in place.
    const fromLink = within(within(firstRow).getAllByRole('cell')[2]!).getByRole('link');
    const address = fromLink.closest('[data-address]')!.getAttribute('data-address')!;
    expect(fromLink).toHaveAttribute(
      'href',
      `/contracts/${contract.address}?address=${address}&kind=transfer`,
    );
    await userEvent.click(fromLink);
    expect(router.state.location.search).toBe(`?address=${address}&kind=transfer`);
    expect(
      screen.getByRole('button', { name: `Remove the address filter ${address}` }),
    ).toBeInTheDocument();
    for (const row of dataRows()) expect(row.innerHTML).toContain(address);

    await userEvent.click(
      screen.getByRole('button', { name: `Remove the address filter ${address}` }),
    );
    expect(router.state.location.search).toBe('?kind=transfer');
  });

  it('shows the rows in the order the URL sorts them, and sorts again on a header click', async () => {
    const contract = contractWith(smallDataset(), 100);
    installSampleApi({ profile: 'documented' });
    const { router } = renderAt(`/contracts/${contract.address}?sort=token`);
    await screen.findByRole('table');
    const tokens = () =>
      dataRows().map((row) =>
        BigInt(
          within(row).getAllByRole('cell')[1]!.querySelector('a')!.title.replace('Token ', ''),
        ),
      );
    const ascending = tokens();
    expect(ascending.length).toBeGreaterThan(5);
    expect(ascending).toEqual([...ascending].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    // The loaded order is newest first: sorted by token it is another order.
    await userEvent.click(
      within(screen.getByRole('columnheader', { name: /time/i })).getByRole('button'),
    );
    expect(router.state.location.search).toBe('?sort=-time');
    const times = dataRows().map((row) => Date.parse(row.querySelector('time')!.dateTime));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(tokens()).not.toEqual(ascending);
  });

  it('restores sort, filters and time display from a shared URL', async () => {
    const contract = contractWith(smallDataset(), 100);
    installSampleApi({ profile: 'documented' });
    // Transfers fill a screen from the first page: no scan for more matches.
    renderAt(`/contracts/${contract.address}?sort=token&kind=transfer&time=abs`);
    await screen.findByRole('table');
    expect(screen.getByRole('columnheader', { name: /token/i })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    expect(screen.getByRole('button', { name: 'Transfer' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(screen.getByRole('button', { name: 'Show relative times' })).toBeInTheDocument();
    // Under a filter the list is read on until the rows that match fill a screen.
    await waitFor(() => expect(statusText()).toMatch(/match the filters among the [\d,]+ scanned/));
  });

  it('canonicalises a short upper-case address in the URL', async () => {
    const contract = smallDataset().contracts[1]!;
    installSampleApi();
    const short = `0x${contract.address.slice(2).replace(/^0+/, '').toUpperCase()}`;
    const { router } = renderAt(`/contracts/${short}?kind=MINT,bogus`);
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/contracts/${contract.address}`),
    );
    expect(router.state.location.search).toBe('?kind=mint');
  });

  it('explains a malformed address instead of crashing', async () => {
    installSampleApi();
    renderAt('/contracts/0xNOTHEX');
    expect(
      await screen.findByRole('heading', { name: 'This is not a contract address' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the contract list' })).toBeInTheDocument();
  });

  it('says when a contract has no events', async () => {
    const empty = smallDataset().contracts.find((contract) => contract.eventCount === 0);
    if (!empty) throw new Error('the dataset has no empty contract');
    installSampleApi();
    renderAt(`/contracts/${empty.address}`);
    expect(await screen.findByText('No events')).toBeInTheDocument();
  });
});
