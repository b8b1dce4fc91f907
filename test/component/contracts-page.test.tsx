import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOSTILE_CONTRACT_NAME } from '../../src/server/sample-service';
import { installSampleApi, renderAt } from './harness';

afterEach(() => vi.restoreAllMocks());

const nameCells = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    // The name is the link's last span; the first may be the image's monogram.
    .map(
      (row) =>
        within(row).queryAllByRole('cell')[0]?.querySelector('a > span:last-child')?.textContent ??
        '',
    )
    .filter(Boolean);

describe('contracts page', () => {
  it('lists the contracts of the service, hostile ones as plain text', async () => {
    const { dataset } = installSampleApi();
    const { container } = renderAt('/contracts');
    expect(await screen.findByRole('table', { name: 'Token contracts' })).toBeInTheDocument();
    expect(
      screen.getByText(`all ${dataset.contracts.length} contracts loaded`),
    ).toBeInTheDocument();
    // The hostile name is text, not markup; no image carries a script URL or handler.
    expect(screen.getByText(HOSTILE_CONTRACT_NAME)).toBeInTheDocument();
    for (const image of container.querySelectorAll('img')) {
      expect(image.getAttribute('src')).toMatch(/^(https:|data:image\/)/);
      expect(image.getAttribute('onerror')).toBeNull();
    }
    expect(container.querySelector('img[src^="javascript"]')).toBeNull();
  });

  it('sorts by name with a header button and keeps the order in the URL', async () => {
    installSampleApi();
    const { router } = renderAt('/contracts');
    await screen.findByRole('table');
    const header = screen.getByRole('columnheader', { name: /name/i });
    expect(header).not.toHaveAttribute('aria-sort');
    const before = nameCells();
    await userEvent.click(within(header).getByRole('button'));
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    const ascending = nameCells();
    expect(ascending).not.toEqual(before);
    expect(
      [...ascending].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })),
    ).toEqual(ascending);
    expect(router.state.location.search).toBe('?sort=name');
    await userEvent.click(within(header).getByRole('button'));
    expect(header).toHaveAttribute('aria-sort', 'descending');
    expect(router.state.location.search).toBe('?sort=-name');
  });

  it('restores the filter and sort from the URL, and resets a filter that matches nothing', async () => {
    installSampleApi();
    renderAt('/contracts?q=zzzz-no-such&sort=-symbol');
    expect(await screen.findByText('No loaded contract matches')).toBeInTheDocument();
    expect(screen.getByRole('searchbox')).toHaveValue('zzzz-no-such');
    await userEvent.click(screen.getByRole('button', { name: 'Clear the filter' }));
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: /symbol/i })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
  });

  it('shows a clear error with retry when the key is refused', async () => {
    const api = installSampleApi({ faults: { fault: { type: 'status', status: 403 } } });
    renderAt('/contracts');
    expect(await screen.findByText('The service refused our key')).toBeInTheDocument();
    api.service.setFaults(null);
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByRole('table')).toBeInTheDocument());
  });
});
