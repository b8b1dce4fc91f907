import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../src/app/query-client';
import { keepLists } from '../../src/app/persistence';
import type { PersistedClient, Persister } from '@tanstack/react-query-persist-client';
import { servedEventCount, type Dataset } from '../../src/server/sample-service';
import {
  busiestContract,
  captureDownloads,
  dataRows,
  installSampleApi,
  renderAt,
  smallDataset,
  statusText,
} from './harness';

/**
 * What the real service sends (upstream-notes): sales as two records, prices in their
 * currencies, no burns in a contract's list, cursors that die, last pages that may not
 * be the last. Against the sample service's deployed profile unless said otherwise.
 */

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A token of `contract` with `events` events or more, `sales` of them sales. */
function tokenWith(
  dataset: Dataset,
  contract: Dataset['contracts'][number],
  events: number,
  sales = 0,
) {
  for (let index = 0; index < dataset.tokenCount; index++) {
    const token = dataset.token(index);
    const seqs = [...dataset.tokenEvents(token)];
    if (
      token.contract === contract &&
      seqs.length >= events &&
      seqs.filter((seq) => dataset.sale(seq)).length >= sales
    ) {
      return token;
    }
  }
  throw new Error('no such token');
}

type Body = { result: Array<Record<string, string>>; cursor?: string | null };

/** Clicks "Load more" (or the footer's offer) until the list says it has ended. */
async function loadToTheEnd() {
  for (let clicks = 0; clicks < 300; clicks++) {
    if (screen.queryByText('End of the list.')) return;
    const button = screen.queryByRole('button', { name: 'Load more' });
    if (button && !button.hasAttribute('disabled')) await userEvent.click(button);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Loading…' })).toBeNull(), {
      timeout: 10_000,
    });
  }
  throw new Error('the list never ended');
}

/** The transaction hashes of the rows the table renders (the last column's). */
const shownTransactions = () =>
  dataRows().map((row) => row.querySelector('td:last-child [title]')?.getAttribute('title'));

const EXPIRED = () =>
  Response.json(
    { error: { kind: 'expired_cursor', message: 'The cursor is no longer valid.', status: 410 } },
    { status: 410 },
  );

describe('one row per sale', () => {
  it('joins each sale’s twins, on one page and across pages, and counts each sale once', async () => {
    const dataset = smallDataset();
    const contract = busiestContract(dataset);
    const api = installSampleApi();
    const pages: Body[] = [];
    api.rewrite = (path, body) => {
      if (path.startsWith(`/api/v1/events/${contract.address}`)) pages.push(body as Body);
      return body;
    };
    renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    await loadToTheEnd();
    const events = servedEventCount(dataset, 'deployed', { contract });
    expect(statusText()).toContain(`all ${events.toLocaleString('en')} events loaded`);
    // The walk met twins on one page and twins a page boundary split.
    const tx = (record?: Record<string, string>) => record?.transaction_hash;
    const split = pages.some(
      (page, index) =>
        page.result.length > 0 && tx(page.result.at(-1)) === tx(pages[index + 1]?.result[0]),
    );
    const together = pages.some((page) =>
      page.result.some((record, index) => index > 0 && tx(record) === tx(page.result[index - 1])),
    );
    expect(split && together).toBe(true);
    // Sales read as amounts in their currency.
    const prices = dataRows()
      .map((row) => within(row).getAllByRole('cell')[5]!.textContent ?? '')
      .filter((text) => text !== '—');
    expect(prices.length).toBeGreaterThan(0);
    for (const price of prices) {
      expect(price).toMatch(/^(≈ |< )?[\d,.]+ (ETH\?|ETH|STRK|USDC)|base units of 0x/);
      expect(price).not.toMatch(/0x0{10}/);
    }
  }, 60_000);

  it('exports a sale once, with its price in its currency and both records', async () => {
    const contract = busiestContract();
    installSampleApi();
    const blobs = captureDownloads();
    renderAt(`/contracts/${contract.address}?kind=sale`);
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('button', { name: 'Export JSON' }));
    const json = JSON.parse(await blobs[0]!.text()) as {
      rows: Array<Record<string, string> & { records?: Array<Record<string, string>> }>;
    };
    const joined = json.rows.filter((row) => row.records);
    expect(joined.length).toBeGreaterThan(0);
    const hashes = json.rows.map((row) => row.transaction_hash);
    expect(new Set(hashes).size).toBe(hashes.length);
    for (const row of joined) {
      expect(row.records!.map((record) => record.label).sort()).toEqual(['sale', 'transfer']);
      // Who held the token is the transfer's word.
      const transfer = row.records!.find((record) => record.label === 'transfer')!;
      expect([row.from, row.to]).toEqual([transfer.from, transfer.to]);
      expect(row.price_base_units).toMatch(/^\d+$/);
    }
  });

  it('tells a token’s provenance without a zero-length holding', async () => {
    const dataset = smallDataset();
    const contract = busiestContract(dataset);
    const token = tokenWith(dataset, contract, 2, 2);
    installSampleApi();
    renderAt(`/contracts/${contract.address}/tokens/${token.id}`);
    const events = servedEventCount(dataset, 'deployed', { token });
    await waitFor(() => expect(statusText()).toContain(`all ${events} events loaded`));
    const steps = within(screen.getByRole('region', { name: 'Provenance' })).getAllByRole(
      'listitem',
    );
    expect(steps).toHaveLength(events + 1);
    expect(screen.queryByText(/held for 0 s/)).toBeNull();
  });
});

describe('burns', () => {
  it('says at the Burn filter that a contract’s list holds none, and where they are', async () => {
    const contract = busiestContract();
    installSampleApi();
    renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    const note = screen.getByText(
      'The service does not list burns in a contract’s events; a token’s own page shows its burn.',
    );
    expect(note).toHaveAttribute('role', 'tooltip');
    expect(note.parentElement).toHaveAttribute('aria-describedby', note.id);
    expect(note.parentElement).toHaveAttribute('tabindex', '0');
  });
});

describe('dead cursors', () => {
  it('continues from the newest after the proxy answers expired_cursor: rows kept, none twice', async () => {
    const dataset = smallDataset();
    const contract = busiestContract(dataset);
    const api = installSampleApi({ profile: 'documented' });
    renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(statusText()).toContain('200 events loaded'));
    let refused = 0;
    api.intercept = (path) => (path.includes('cursor=') && refused++ === 0 ? EXPIRED() : null);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The service lost its place in this list');
    expect(alert).toHaveTextContent('skips the 200 events already loaded');
    expect(statusText()).toContain('200 events loaded');
    const before = api.requests.length;
    await userEvent.click(within(alert).getByRole('button', { name: 'Continue from the newest' }));
    // Read again from the head (no cursor) in the largest pages, past the 200 rows, then on.
    await waitFor(() =>
      expect(statusText()).toMatch(/^(?!.*reading the list again)(all )?[\d,]+ events loaded/),
    );
    expect(api.requests.slice(before)[0]).toBe(`/api/v1/events/${contract.address}?limit=5000`);
    expect(new Set(shownTransactions()).size).toBe(dataRows().length);
    await loadToTheEnd();
    expect(statusText()).toContain(`all ${contract.eventCount.toLocaleString('en')} events loaded`);
  }, 30_000);

  it('takes a cursor that fails twice with the upstream’s 502 for dead', async () => {
    const contract = busiestContract();
    const api = installSampleApi({ profile: 'documented' });
    renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    api.service.setFaults({
      fault: { type: 'status', status: 502 },
      pathIncludes: 'cursor=',
      nth: 1,
      times: 2,
    });
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('The service failed')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    const alert = await screen.findByText('The service lost its place in this list');
    expect(screen.queryByText('The service failed')).toBeNull();
    await userEvent.click(
      within(alert.parentElement!).getByRole('button', { name: 'Continue from the newest' }),
    );
    await waitFor(() =>
      expect(statusText()).toMatch(/^(?!.*reading the list again)(all )?[\d,]+ events loaded/),
    );
    expect(new Set(shownTransactions()).size).toBe(dataRows().length);
    await loadToTheEnd();
    expect(statusText()).toContain(`all ${contract.eventCount.toLocaleString('en')} events loaded`);
  });

  it('walks round a dead cursor by itself during "Load full history"', async () => {
    const contract = busiestContract();
    const api = installSampleApi({ profile: 'documented' });
    renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    let cursors = 0;
    // The walk's first page behind a cursor: its cursor is dead.
    api.intercept = (path) => (path.includes('cursor=') && ++cursors === 1 ? EXPIRED() : null);
    await userEvent.click(screen.getByRole('button', { name: 'Load full history' }));
    await waitFor(
      () =>
        expect(statusText()).toContain(
          `all ${contract.eventCount.toLocaleString('en')} events loaded`,
        ),
      { timeout: 20_000 },
    );
    // Read again from the head, in the walk's largest pages.
    expect(cursors).toBe(1);
    expect(api.requests).toContain(`/api/v1/events/${contract.address}?limit=5000`);
    expect(screen.queryByRole('alert')).toBeNull();
  }, 30_000);

  it('walks round a dead cursor by itself on a token’s page', async () => {
    const dataset = smallDataset();
    const contract = busiestContract(dataset);
    const token = tokenWith(dataset, contract, 4);
    const api = installSampleApi({ profile: 'documented' });
    // The token's first page cut in two, its second half behind a cursor that is dead.
    let cut = true;
    api.rewrite = (path, body) => {
      if (!path.includes('/tokens/') && !path.includes(`${contract.address}/`)) return body;
      if (!cut) return body;
      cut = false;
      const result = (body as Body).result;
      return { result: result.slice(0, Math.ceil(result.length / 2)), cursor: 'dead-cursor' };
    };
    api.intercept = (path) => (path.includes('cursor=dead-cursor') ? EXPIRED() : null);
    renderAt(`/contracts/${contract.address}/tokens/${token.id}`);
    const events = servedEventCount(dataset, 'documented', { token });
    await waitFor(() => expect(statusText()).toContain(`all ${events} events loaded`));
    expect(api.requests.some((path) => path.includes('cursor=dead-cursor'))).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('the end of a list', () => {
  it('says a full last page without a cursor may not be the end, and checks again', async () => {
    const contract = busiestContract();
    const api = installSampleApi({ profile: 'documented' });
    renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    // The next page comes without its cursor, as when the service cannot reach its
    // cursor cache (the proxy keeps the page itself, as it came).
    let cut = true;
    api.rewrite = (path, body) => {
      if (!cut || !path.includes('cursor=')) return body;
      cut = false;
      const { cursor: _dropped, ...rest } = body;
      return rest;
    };
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() =>
      expect(statusText()).toContain(
        '200 events loaded · the service reported no more after a full page',
      ),
    );
    expect(screen.queryByText('End of the list.')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Check again' }));
    await waitFor(() =>
      expect(statusText()).toMatch(/^(?!.*reading the list again)(all )?[\d,]+ events loaded/),
    );
    await loadToTheEnd();
    expect(statusText()).toContain(`all ${contract.eventCount.toLocaleString('en')} events loaded`);
  }, 30_000);
});

describe('moving between contracts', () => {
  it('keeps nothing of the first contract: live events, filter drafts, rows', async () => {
    const dataset = smallDataset();
    const [first, second] = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount);
    const api = installSampleApi({ profile: 'documented' });
    const { router, queryClient } = renderAt(`/contracts/${first!.address}`);
    await screen.findByRole('table');
    await waitFor(() => expect(statusText()).toContain('100 events loaded'));
    // A new event at the head of the first contract, added on request.
    api.rewrite = (path, body) => {
      if (path.includes('cursor=') || !path.includes(first!.address)) return body;
      const result = (body as Body).result;
      const fresh = {
        ...result[0]!,
        event_id: `0x${'f'.repeat(64)}`,
        transaction_hash: `0x${'e'.repeat(64)}`,
        timestamp: Number(result[0]!.timestamp) + 60,
      };
      return { ...body, result: [fresh, ...result.slice(0, 99)] };
    };
    await act(() =>
      queryClient.refetchQueries({ queryKey: ['events', 'contract', first!.address, 'head'] }),
    );
    await userEvent.click(await screen.findByRole('button', { name: '1 new event' }));
    await waitFor(() => expect(statusText()).toContain('101 events loaded'));
    await userEvent.type(screen.getByRole('textbox', { name: 'Sender or receiver' }), '0x1234');
    await act(() => router.navigate(`/contracts/${second!.address}`));
    await waitFor(() =>
      expect(within(dataRows()[0]!).getAllByRole('cell')[1]!.querySelector('a')!).toHaveAttribute(
        'href',
        expect.stringContaining(second!.address),
      ),
    );
    expect(statusText()).toContain('100 events loaded');
    expect(screen.getByRole('textbox', { name: 'Sender or receiver' })).toHaveValue('');
    expect(shownTransactions()).not.toContain(`0x${'e'.repeat(64)}`);
  });
});

describe('filters', () => {
  it('reads on under a filter until a screenful matches, saying how many were scanned', async () => {
    const contract = busiestContract();
    const api = installSampleApi({ profile: 'documented' });
    renderAt(`/contracts/${contract.address}?kind=mint`);
    await screen.findByRole('table');
    await waitFor(() =>
      expect(statusText()).toMatch(/· ([\d,]+) match the filters among the ([\d,]+) scanned/),
    );
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Loading…' })).toBeNull());
    const [, matches, scanned] = /([\d,]+) match the filters among the ([\d,]+) scanned/.exec(
      statusText(),
    )!;
    expect(Number(scanned!.replace(/,/g, ''))).toBeGreaterThan(100);
    expect(Number(matches!.replace(/,/g, ''))).toBeGreaterThanOrEqual(30);
    expect(api.requests.filter((path) => path.includes('cursor=')).length).toBeGreaterThan(0);
  });
});

describe('kept across a reload', () => {
  it('shows the loaded pages again at once, without asking the service', async () => {
    const contract = busiestContract();
    const api = installSampleApi({ profile: 'documented' });
    let kept: PersistedClient | undefined;
    const persister: Persister = {
      persistClient: (client) => {
        kept = structuredClone(client);
      },
      restoreClient: () => kept,
      removeClient: () => {
        kept = undefined;
      },
    };
    const before = createQueryClient();
    const stop = await keepLists(before, persister);
    const first = renderAt(`/contracts/${contract.address}`, before);
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(statusText()).toContain('200 events loaded'));
    const rows = shownTransactions();
    stop();
    first.unmount();

    const after = createQueryClient();
    await keepLists(after, persister);
    const asked = api.requests.length;
    renderAt(`/contracts/${contract.address}`, after);
    await screen.findByRole('table');
    expect(statusText()).toContain('200 events loaded · more available');
    expect(shownTransactions()).toEqual(rows);
    // No page behind a cursor asked again (the first page's address is also the one the
    // "new events" poll asks for).
    expect(api.requests.slice(asked).filter((path) => path.includes('cursor='))).toEqual([]);
  });
});
