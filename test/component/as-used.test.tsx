import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shortenHex } from '../../src/lib/address';
import { tokenIdToHex } from '../../src/lib/token-id';
import {
  busiestContract,
  byEventCount,
  dataRows,
  renderAt,
  smallDataset,
  statusText,
} from './harness';
import { expectWalletAndFilter } from './address-links';
import { indexedApiForTests } from './indexed-api';

/*
 * The dashboard as a person uses it: what they type, the keys they press, what each page
 * is called and says. Layout, widths and touch are the browser tests' (use.spec.ts).
 */
afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

const installIndexed = indexedApiForTests();

const lookup = () => screen.getByRole('textbox', { name: /^Go to a contract/ });

describe('titles', () => {
  it('names each page by what it shows', async () => {
    const contract = busiestContract();
    await installIndexed({ indexed: [contract.address] });
    const { router } = renderAt('/contracts');
    await screen.findByRole('table');
    expect(document.title).toBe('Collections · NFT activity on Starknet');
    await act(() => router.navigate(`/contracts/${contract.address}`));
    await screen.findByRole('table', { name: 'Events of this collection' });
    await waitFor(() => expect(document.title).toBe(`${contract.name} · activity`));
    const tokenId = dataRows()[0]!.querySelector('a')!.title.replace('Token ', '');
    await act(() => router.navigate(`/contracts/${contract.address}/tokens/${tokenId}`));
    await waitFor(() => expect(document.title).toBe(`Token ${tokenId} · ${contract.name}`));
  });
});

describe('the lookup box', () => {
  it('goes to a contract by its short form or its name, and with a token id', async () => {
    const contract = busiestContract();
    await installIndexed({ indexed: [contract.address] });
    const { router } = renderAt('/contracts');
    await screen.findByRole('table');
    await userEvent.type(lookup(), `${shortenHex(contract.address)}{Enter}`);
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/contracts/${contract.address}`),
    );
    await userEvent.type(lookup(), `${contract.name!.toLowerCase()} 0x0c{Enter}`);
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/contracts/${contract.address}/tokens/12`),
    );
  });

  it('asks the server what a whole value is: a wallet or a transaction opens at once, an unknown one is said', async () => {
    const contract = busiestContract();
    const api = await installIndexed({ indexed: [contract.address] });
    const events = (await api.answer(`/api/collections/${contract.address}/events?limit=20`)) as {
      events: { to: string; transactionHash: string }[];
    };
    const wallet = events.events.find((event) => !/^0x0+$/.test(event.to))!.to;
    const hash = events.events[0]!.transactionHash;
    const { router } = renderAt('/contracts');
    // The page's code loads first: a bound on a hang, not a wait.
    await screen.findByRole('table', {}, { timeout: 30_000 });
    await userEvent.type(lookup(), `${wallet}{Enter}`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/addresses/${wallet}`));
    expect(api.requests).toContain(`/api/lookup/${wallet}`);
    await screen.findByRole('table', { name: 'Events of this wallet' }, { timeout: 30_000 });
    await waitFor(() => expect(statusText()).toMatch(/events loaded/));

    // A transaction, by its explorer link: its page, its changes of hands.
    await userEvent.type(lookup(), `https://voyager.online/tx/${hash}{Enter}`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/transactions/${hash}`));
    await screen.findByRole(
      'heading',
      { level: 2, name: /change(s)? of hands/ },
      { timeout: 30_000 },
    );

    // Never seen: said, and the page stays.
    await userEvent.type(lookup(), `0x${'7'.repeat(60)}{Enter}`);
    const answer = await within(screen.getByRole('search')).findByRole('alert');
    expect(answer).toHaveTextContent(
      /is not known: no collection the service lists, no wallet or transaction the index has seen\./,
    );
    expect(router.state.location.pathname).toBe(`/transactions/${hash}`);
  });

  it('lets the reader pick among the contracts a name fits', async () => {
    await installIndexed();
    renderAt('/contracts');
    await screen.findByRole('table');
    // Part of two names: StarkVerse Gallery and Starknet Quest.
    const shared = 'stark';
    const fit = byEventCount().filter((contract) => contract.name!.toLowerCase().includes(shared));
    expect(fit.length).toBeGreaterThan(1);
    await userEvent.type(lookup(), `${shared}{Enter}`);
    const choices = await within(screen.getByRole('search')).findByRole('status');
    expect(choices).toHaveTextContent('Several contracts fit; pick one:');
    expect(
      within(choices)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(
      fit
        .map((contract) => contract)
        .sort((a, b) => a.name!.localeCompare(b.name!))
        .map((contract) => `/contracts/${contract.address}`),
    );
  });
});

describe('the sender or receiver filter', () => {
  it('takes the short form of a loaded address, and never pads one into nothing', async () => {
    const contract = busiestContract();
    await installIndexed({ indexed: [contract.address] });
    const { router } = renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    const address = dataRows()[0]!
      .querySelectorAll('[data-address]')[1]!
      .getAttribute('data-address')!;
    const box = screen.getByRole('textbox', { name: 'Sender or receiver' });
    await userEvent.type(box, '0xfffff{Enter}');
    expect(
      await screen.findByText(/No loaded event has an address like 0xfffff/),
    ).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
    await userEvent.clear(box);
    await userEvent.type(box, `${shortenHex(address)}{Enter}`);
    await waitFor(() => expect(router.state.location.search).toBe(`?address=${address}`));
  });
});

describe('keyboard', () => {
  it('the keys dialog takes the focus, keeps Tab inside and gives the focus back', async () => {
    await installIndexed();
    renderAt('/contracts');
    await screen.findByRole('table');
    const sortByName = screen.getByRole('button', { name: /^Collection/ });
    act(() => sortByName.focus());
    await userEvent.keyboard('?');
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    const close = within(dialog).getByRole('button', { name: 'Close' });
    expect(close).toHaveFocus();
    // The only control: Tab and Shift+Tab stay on it.
    await userEvent.tab();
    expect(close).toHaveFocus();
    await userEvent.tab({ shift: true });
    expect(close).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sortByName).toHaveFocus();
  });

  it('Enter opens the row j moved to, even with the focus on a button just clicked', async () => {
    const contract = busiestContract();
    await installIndexed({ indexed: [contract.address] });
    const { router } = renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('button', { name: 'Show exact times' }));
    await userEvent.keyboard('j');
    const first = dataRows()[0]!;
    expect(first).toHaveAttribute('aria-current', 'true');
    expect(first).toHaveFocus();
    const tokenId = first.querySelector('a')!.title.replace('Token ', '');
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(
        `/contracts/${contract.address}/tokens/${tokenId}`,
      ),
    );
  });

  it('Settings close on Esc, giving the focus back, and on a click outside', async () => {
    await installIndexed();
    renderAt('/contracts');
    await screen.findByRole('table');
    const toggle = screen.getByRole('button', { name: 'Settings' });
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('combobox', { name: 'Times' })).toBeVisible();
    await userEvent.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
    await userEvent.click(toggle);
    // Outside the panel lies a backdrop that takes the click (browsers: use.spec.ts).
    const backdrop = document.querySelector('[aria-hidden="true"][class*="backdrop"]')!;
    fireEvent.click(backdrop);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });
});

describe('the activity chart', () => {
  it('a bar’s Enter shows its time in the table, and the URL keeps it', async () => {
    const contract = busiestContract();
    await installIndexed({ indexed: [contract.address] });
    const { router } = renderAt(`/contracts/${contract.address}`);
    await screen.findByRole('table');
    // The charts are folded at first, so that the table's first rows show.
    await userEvent.click(screen.getByText('Charts: activity and sale prices'));
    const slider = await screen.findByRole('slider', { name: /^Bars, one per/ });
    act(() => slider.focus());
    await userEvent.keyboard('{Home}{Enter}');
    await waitFor(() => expect(router.state.location.search).toMatch(/^\?from=.+&to=.+$/));
    const params = new URLSearchParams(router.state.location.search);
    const from = Date.parse(params.get('from')!);
    const to = Date.parse(params.get('to')!);
    await waitFor(() => {
      const rows = dataRows();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        const time = Date.parse(row.querySelector('time')!.dateTime);
        expect(time >= from && time < to).toBe(true);
      }
    });
    await userEvent.click(screen.getByRole('button', { name: /^Remove the time filter/ }));
    expect(router.state.location.search).toBe('');
  });
});

describe('an empty contract', () => {
  it('says one thing', async () => {
    const empty = smallDataset().contracts.find((contract) => contract.eventCount === 0)!;
    await installIndexed({ indexed: [empty.address] });
    renderAt(`/contracts/${empty.address}`);
    expect(await screen.findByText('No events')).toBeInTheDocument();
    expect(screen.queryByText(/0 events loaded/)).toBeNull();
    expect(screen.queryByText('End of the list.')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Load full history' })).toBeNull();
  });
});

describe('the token page', () => {
  it('names its collection, copies both ids and links its addresses', async () => {
    const contract = busiestContract();
    const dataset = smallDataset();
    let token;
    for (let index = 0; index < dataset.tokenCount && !token; index++) {
      const candidate = dataset.token(index);
      if (candidate.contract === contract && dataset.tokenEvents(candidate).length >= 2) {
        token = candidate;
      }
    }
    await installIndexed({ indexed: [contract.address] });
    renderAt(`/contracts/${contract.address}/tokens/${token!.id}`);
    await screen.findByRole('table');
    expect((await screen.findAllByRole('link', { name: contract.name }))[0]).toHaveAttribute(
      'href',
      `/contracts/${contract.address}`,
    );
    expect(screen.getByRole('button', { name: `Copy token id ${token!.id}` })).toBeInTheDocument();
    expect(
      screen.getByRole('button', {
        name: `Copy token id in hexadecimal ${tokenIdToHex(token!.id)}`,
      }),
    ).toBeInTheDocument();
    // The rows' and the timeline's addresses open their wallets, a filter beside each.
    expect(
      expectWalletAndFilter(contract.address, /^Show the collection’s events with 0x/),
    ).toBeGreaterThan(2);
    expect(screen.getAllByRole('button', { name: /^Copy address 0x/ }).length).toBeGreaterThan(2);
  });
});
