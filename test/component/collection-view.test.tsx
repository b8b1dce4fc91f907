import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { busiestContract, dataRows, renderAt } from './harness';
import { indexedApiForTests } from './indexed-api';

/**
 * A collection's page as its view sets it: the order of its rows both ways, the headers
 * saying which order is shown.
 */
const install = indexedApiForTests();
const contract = busiestContract();
const page = `/contracts/${contract.address}`;

const rowTimes = () =>
  dataRows().map((row) => Date.parse(row.querySelector('time')!.getAttribute('datetime')!));
const timeHeader = () => screen.getByRole('columnheader', { name: /Time/ });

describe('the collection page’s order', () => {
  it('sorts by time both ways, the header saying which, the default one too', async () => {
    const api = await install({ indexed: [contract.address] });
    const { router } = renderAt(page);
    await screen.findByRole('table', { name: 'Events of this collection' });
    expect(timeHeader()).toHaveAttribute('aria-sort', 'descending');

    await userEvent.click(screen.getByRole('button', { name: /Time/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=time'));
    await waitFor(() => expect(api.requests.at(-1)).toContain('sort=time'));
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
