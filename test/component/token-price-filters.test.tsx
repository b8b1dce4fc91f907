import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { EventRow } from '../../src/lib/answers';
import { busiestContract, dataRows, renderAt } from './harness';
import { indexedApiForTests } from './indexed-api';

/**
 * The collection page's token and price filters: typed, checked, set in the URL and sent
 * with every request of the view (rows, its own figures, the export); a bad value said
 * beside its field, the view kept.
 */
const install = indexedApiForTests();
const contract = busiestContract();
const page = `/contracts/${contract.address}`;

// A bound on a hang: the page's first render loads its lazy chunk, slow on a busy machine.
const eventsTable = () =>
  screen.findByRole('table', { name: 'Events of this collection' }, { timeout: 20_000 });
const lastRequest = (requests: string[], part: string) =>
  requests.filter((path) => path.includes(part)).at(-1) ?? '';

describe('the token filter', () => {
  it('takes a hex id as its decimal, in the URL and every request, and its chip removes it', async () => {
    const api = await install({ indexed: [contract.address] });
    const first = (await api.answer(`/api/collections/${contract.address}/events?limit=1`)) as {
      events: EventRow[];
    };
    const token = first.events[0]!.tokenId;
    const { router } = renderAt(page);
    await eventsTable();

    const field = screen.getByRole('textbox', { name: 'Token' });
    await userEvent.type(field, `0x${BigInt(token).toString(16)}{Enter}`);
    await waitFor(() => expect(router.state.location.search).toBe(`?token=${token}`));
    await waitFor(() => expect(lastRequest(api.requests, '/events?')).toContain(`token=${token}`));
    await waitFor(() => expect(lastRequest(api.requests, '/figures?')).toContain(`token=${token}`));
    await waitFor(() => {
      expect(dataRows().length).toBeGreaterThan(0);
      for (const row of dataRows()) expect(row).toHaveTextContent(token);
    });
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      expect.stringContaining(`token=${token}`),
    );
    expect(await screen.findByLabelText('This view')).toBeInTheDocument();
    // The charts, once opened, ask for the view's series.
    await userEvent.click(screen.getByText('Charts: activity and sale prices'));
    await waitFor(() => expect(lastRequest(api.requests, '/series?')).toContain(`token=${token}`));

    await userEvent.click(screen.getByRole('button', { name: `Remove the token filter ${token}` }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('says why an id is none, and keeps the view and what was typed', async () => {
    await install({ indexed: [contract.address] });
    const { router } = renderAt(`${page}?kind=sale`);
    await eventsTable();
    const field = screen.getByRole('textbox', { name: 'Token' });
    await userEvent.type(field, '12ab{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'A token id is a decimal number or 0x followed by hexadecimal digits.',
    );
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveValue('12ab');
    expect(router.state.location.search).toBe('?kind=sale');
  });
});

describe('the price range', () => {
  it('is off without one currency, saying why; in ETH it sets base units in the URL and requests', async () => {
    const api = await install({ indexed: [contract.address] });
    const { router } = renderAt(page);
    await eventsTable();
    const range = screen.getByRole('group', { name: /^Price$/ });
    expect(range).toBeDisabled();
    expect(range).toHaveAccessibleDescription(/Choose one currency for a price range/);

    // The choices are the collection's own currencies, once its figures come.
    await screen.findByRole('option', { name: 'ETH' });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Currency' }), 'ETH');
    await waitFor(() => expect(router.state.location.search).toBe('?currency=ETH'));
    const enabled = screen.getByRole('group', { name: 'Price (ETH)' });
    expect(enabled).toBeEnabled();
    await userEvent.type(within(enabled).getByRole('textbox', { name: 'From (included)' }), '0.5');
    await userEvent.type(within(enabled).getByRole('textbox', { name: 'Up to (included)' }), '2');
    await userEvent.click(within(enabled).getByRole('button', { name: 'Set' }));
    const min = '500000000000000000';
    const max = '2000000000000000000';
    await waitFor(() =>
      expect(router.state.location.search).toBe(`?currency=ETH&maxPrice=${max}&minPrice=${min}`),
    );
    await waitFor(() => {
      const events = lastRequest(api.requests, '/events?');
      expect(events).toContain(`minPrice=${min}`);
      expect(events).toContain(`maxPrice=${max}`);
    });
    await waitFor(() =>
      expect(lastRequest(api.requests, '/figures?')).toContain(`minPrice=${min}`),
    );
    expect(screen.getByRole('button', { name: 'Remove the price filter 0.5–2 ETH' })).toBeVisible();

    // Another currency's units are others: the range goes with the currency it was in.
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Currency' }), '');
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('says why an amount is none, or a range runs backwards, and keeps the view', async () => {
    await install({ indexed: [contract.address] });
    const { router } = renderAt(`${page}?currency=USDC`);
    await eventsTable();
    const range = screen.getByRole('group', { name: 'Price (USDC)' });
    const from = within(range).getByRole('textbox', { name: 'From (included)' });
    const upTo = within(range).getByRole('textbox', { name: 'Up to (included)' });
    const set = within(range).getByRole('button', { name: 'Set' });

    await userEvent.type(from, '0.0000001');
    await userEvent.click(set);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'From: USDC has 6 decimals: at most 6 digits after the point.',
    );
    expect(from).toHaveAttribute('aria-invalid', 'true');

    await userEvent.clear(from);
    await userEvent.type(from, '5');
    await userEvent.type(upTo, 'two');
    await userEvent.click(set);
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Up to: Enter an amount in USDC'),
    );

    await userEvent.clear(upTo);
    await userEvent.type(upTo, '1{Enter}');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('From is above Up to'));
    expect(router.state.location.search).toBe('?currency=USDC');
  });
});
