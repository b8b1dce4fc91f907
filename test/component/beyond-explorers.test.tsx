import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../src/api/query-keys';
import {
  busiestContract,
  captureDownloads,
  dataRows,
  installSampleApi,
  renderAt,
  smallDataset,
  statusText,
} from './harness';

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('activity chart and full history', () => {
  it('charts the loaded events, then the whole history after "Load full history"', async () => {
    const contract = busiestContract();
    installSampleApi({ profile: 'documented' });
    renderAt(`/contracts/${contract.address}`);
    const chart = await screen.findByRole('img', { name: /events per (day|hour)/ });
    expect(chart.getAttribute('aria-label')).toMatch(/^100 events per/);
    expect(screen.getByText(/loaded events only/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Load full history' }));
    await waitFor(
      () =>
        expect(statusText()).toContain(
          `all ${contract.eventCount.toLocaleString('en')} events loaded`,
        ),
      {
        timeout: 20_000,
      },
    );
    // The chart follows the loaded events at a lower priority than the status line.
    await waitFor(() =>
      expect(screen.getByRole('img', { name: /events per/ }).getAttribute('aria-label')).toMatch(
        new RegExp(`^${contract.eventCount.toLocaleString('en')} events per`),
      ),
    );
    expect(screen.getByText(/the whole history/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load full history' })).toBeNull();
  });

  it('stops loading on Cancel and keeps what was loaded', async () => {
    const contract = busiestContract();
    const api = installSampleApi({ profile: 'documented' });
    renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    // Slow next pages: one walk page would hold this small contract's whole history, and
    // jsdom's window asks for more rows as browsing would (the table is "near its end"),
    // so with quick pages the list may be complete by the time Cancel is seen.
    api.service.setFaults({ latencyMs: 3_000, pathIncludes: 'cursor=' });
    await userEvent.click(screen.getByRole('button', { name: 'Load full history' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('button', { name: 'Load full history' })).toBeInTheDocument();
    expect(statusText()).toMatch(/events loaded · (more available|loading more…)/);
  });
});

describe('export', () => {
  it('downloads the rows shown, in the order shown, with exact ids', async () => {
    const contract = busiestContract();
    installSampleApi({ profile: 'documented' });
    const blobs = captureDownloads();
    renderAt(`/contracts/${contract.address}?kind=transfer&sort=token`);
    await screen.findByRole('table');
    const shown = dataRows().length;
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await userEvent.click(screen.getByRole('button', { name: 'Export JSON' }));
    const csv = await blobs[0]!.text();
    const json = JSON.parse(await blobs[1]!.text()) as {
      count: number;
      rows: Array<{ kind: string; token_id: string }>;
      filters: Record<string, string>;
    };
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe(
      'kind,label,token_id,from,to,timestamp,time_utc,transaction_hash,event_id,' +
        'price_amount,price_symbol,currency_address,currency_assumed,price_base_units,' +
        'price_as_sent,quantity,marketplace,marketplace_address,contract_address',
    );
    expect(json.count).toBe(lines.length - 1);
    expect(json.count).toBeGreaterThanOrEqual(shown);
    expect(json.filters).toEqual({ kind: 'transfer', sort: 'token' });
    expect(
      json.rows.every((row) => row.kind === 'transfer' && typeof row.token_id === 'string'),
    ).toBe(true);
    const ids = json.rows.map((row) => BigInt(row.token_id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(lines[1]!.split(',')[2]).toBe(json.rows[0]!.token_id);
  });
});

describe('address tracing', () => {
  it('highlights an address in every row while it is hovered or focused', async () => {
    const contract = busiestContract();
    installSampleApi({ profile: 'documented' });
    renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    // The most frequent receiver among the rows on screen.
    const counts = new Map<string, number>();
    for (const node of document.querySelectorAll('td [data-address]')) {
      const value = node.getAttribute('data-address')!;
      if (!/^0x0+$/.test(value)) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    const [address, count] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    const first = document.querySelector(`td [data-address="${address}"]`)!;
    fireEvent.mouseEnter(first);
    expect(
      document.querySelectorAll(`[data-address="${address}"][data-traced="true"]`),
    ).toHaveLength(count);
    fireEvent.mouseLeave(first);
    expect(document.querySelectorAll('[data-traced="true"]')).toHaveLength(0);
  });
});

describe('live updates', () => {
  it('offers new events at the head and adds them on request', async () => {
    const contract = busiestContract();
    const api = installSampleApi({ profile: 'documented' });
    const { queryClient } = renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    await waitFor(() => expect(statusText()).toContain('100 events loaded'));
    const newest = dataRows()[0]!;
    api.rewrite = (path, body) => {
      if (path.includes('cursor=') || !path.includes(contract.address)) return body;
      const result = body.result as Array<Record<string, unknown>>;
      const template = result[0]!;
      const fresh = [1, 2].map((n) => ({
        ...template,
        event_id: `0x${'f'.repeat(63)}${n}`,
        transaction_hash: `0x${'e'.repeat(63)}${n}`,
        timestamp: Number(template.timestamp) + 60 * n,
      }));
      return { ...body, result: [...fresh.reverse(), ...result.slice(0, 98)] };
    };
    await act(() =>
      queryClient.refetchQueries({ queryKey: queryKeys.contractHead(contract.address, 100) }),
    );
    const notice = await screen.findByRole('button', { name: '2 new events' });
    expect(dataRows()[0]).toBe(newest);
    await userEvent.click(notice);
    await waitFor(() => expect(statusText()).toContain('102 events loaded'));
    expect(screen.queryByRole('button', { name: /new event/ })).toBeNull();
  });
});

describe('keyboard', () => {
  it('moves through rows with j/k and opens the focused token with Enter', async () => {
    const contract = busiestContract();
    installSampleApi({ profile: 'documented' });
    const { router } = renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    await userEvent.keyboard('jjk');
    const focused = dataRows().find((row) => row.getAttribute('aria-current') === 'true');
    expect(focused).toBe(dataRows()[0]);
    await userEvent.keyboard('j');
    const second = dataRows()[1]!;
    expect(second).toHaveAttribute('aria-current', 'true');
    const tokenId = within(second)
      .getAllByRole('cell')[1]!
      .querySelector('a')!
      .getAttribute('title')!
      .replace('Token ', '');
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(
        `/contracts/${contract.address}/tokens/${tokenId}`,
      ),
    );
  });

  it('focuses the lookup with / and lists the keys with ?', async () => {
    installSampleApi();
    renderAt('/contracts');
    await screen.findByRole('table');
    await userEvent.keyboard('/');
    expect(screen.getByRole('textbox', { name: /go to a contract/i })).toHaveFocus();
    await userEvent.keyboard('0xzz{Escape}');
    expect(screen.getByRole('textbox', { name: /go to a contract/i })).toHaveValue('');
    (document.activeElement as HTMLElement).blur();
    await userEvent.keyboard('?');
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('settings', () => {
  it('persists the time display, zone and page size in this browser', async () => {
    const contract = busiestContract();
    const api = installSampleApi({ profile: 'documented' });
    const view = renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    await userEvent.click(screen.getByText('Settings'));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Times' }), 'absolute');
    await userEvent.selectOptions(
      screen.getByRole('combobox', { name: 'Events per request' }),
      '250',
    );
    await waitFor(() => expect(statusText()).toContain('250 events loaded'));
    expect(api.requests.some((path) => path.includes('limit=250'))).toBe(true);
    // Exact times, their zone said once, in the column's header.
    const exact = /^\d{1,2} \w{3,4} \d{4}, \d\d:\d\d:\d\d$/;
    await waitFor(() => expect(document.querySelector('td time')?.textContent).toMatch(exact));
    expect(screen.getByRole('columnheader', { name: /^Time \(UTC\)/ })).toBeInTheDocument();
    view.unmount();
    renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    await waitFor(() => expect(document.querySelector('td time')?.textContent).toMatch(exact));
    expect(JSON.parse(localStorage.getItem('token-activity-settings')!)).toMatchObject({
      timeDisplay: 'absolute',
      pageSize: 250,
    });
  });
});

describe('phone layout', () => {
  beforeEach(() => {
    window.matchMedia = vi.fn((query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    })) as unknown as typeof window.matchMedia;
  });
  afterEach(() => {
    delete (window as { matchMedia?: unknown }).matchMedia;
  });

  it('renders each row as a card sized by its content, naming the cells that need it', async () => {
    const contract = busiestContract();
    installSampleApi({ profile: 'documented' });
    renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    const row = dataRows()[0]!;
    // No fixed height: the virtualiser measures each card (a browser test checks the fit).
    expect(row.style.height).toBe('');
    // The kind's badge, the time and the linked hash speak for themselves.
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.getAttribute('data-label')),
    ).toEqual([null, 'Token', 'From', 'To', null, 'Price', null]);
  });
});

describe('provenance timeline', () => {
  it('tells the chain from mint to the current holder or the burn', async () => {
    const dataset = smallDataset();
    const contract = busiestContract();
    let token;
    for (let index = 0; index < dataset.tokenCount && !token; index++) {
      const candidate = dataset.token(index);
      if (candidate.contract === contract && dataset.tokenEvents(candidate).length >= 3)
        token = candidate;
    }
    // One step per event: the documented profile's one record per sale (the deployed
    // profile's sale twins are the dashboard's to merge).
    installSampleApi({ profile: 'documented' });
    renderAt(`/contracts/${contract.address}/tokens/${token!.id}`);
    const timeline = await screen.findByRole('list', { name: undefined });
    await waitFor(() =>
      expect(within(timeline).getAllByRole('listitem').length).toBe(
        dataset.tokenEvents(token!).length + 1,
      ),
    );
    const steps = within(timeline).getAllByRole('listitem');
    expect(steps[0]).toHaveTextContent(/^Mint.*Minted to/);
    expect(steps.at(-1)).toHaveTextContent(/Held now by|Burned: the token no longer exists/);
    expect(steps[0]).toHaveTextContent(/then held for/);
  });
});
