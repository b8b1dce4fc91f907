import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { busiestContract, dataRows, renderAt, statusText } from './harness';
import { indexedApiForTests } from './indexed-api';

const installIndexed = indexedApiForTests();

afterEach(() => {
  localStorage.clear();
});

describe('address tracing', () => {
  it('highlights an address in every row while it is hovered or focused', async () => {
    const contract = busiestContract();
    await installIndexed({ indexed: [contract.address] });
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

describe('keyboard', () => {
  it('moves through rows with j/k and opens the focused token with Enter', async () => {
    const contract = busiestContract();
    await installIndexed({ indexed: [contract.address] });
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
    await installIndexed();
    renderAt('/contracts');
    await screen.findByRole('table');
    await userEvent.keyboard('/');
    expect(screen.getByRole('textbox', { name: /go to a contract/i })).toHaveFocus();
    await userEvent.keyboard('0xzz{Escape}');
    expect(screen.getByRole('textbox', { name: /go to a contract/i })).toHaveValue('');
    act(() => (document.activeElement as HTMLElement).blur());
    await userEvent.keyboard('?');
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('settings', () => {
  it('persists the time display, zone and page size in this browser', async () => {
    const contract = busiestContract();
    const api = await installIndexed({ indexed: [contract.address] });
    const view = renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    await userEvent.click(screen.getByText('Settings'));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Times' }), 'absolute');
    await userEvent.selectOptions(
      screen.getByRole('combobox', { name: 'Events per request' }),
      '250',
    );
    await waitFor(() => expect(statusText()).toMatch(/^250 of|\| 250 of/));
    expect(
      api.requests.some((path) => path.includes('/events?') && path.includes('limit=250')),
    ).toBe(true);
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
    await installIndexed({ indexed: [contract.address] });
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
    ).toEqual([null, 'Token', 'From', 'To', null, 'Price', 'Market', null]);
  });
});
