import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { busiestContract, renderAt, statusText } from './harness';
import { indexedApiForTests } from './indexed-api';

/**
 * A link's values that the view cannot take are left out and said so, where the view's
 * controls are; the rest of the link's view is shown.
 */
const install = indexedApiForTests();
const contract = busiestContract();
const base = `/contracts/${contract.address}`;

// A bound on a hang: the page's code loads first, a chunk of its own.
const leftOut = () =>
  screen.findByText(/Part of this link was left out/, undefined, { timeout: 10_000 });

describe('values of a link left out of the view', () => {
  it('a collection: dates that run backwards are said, its other filters kept', async () => {
    await install({ indexed: [contract.address] });
    const { router } = renderAt(`${base}?from=2025-06-10&kind=sale&to=2025-06-01`);
    const notice = (await leftOut()).parentElement!;
    expect(notice).toHaveTextContent('“from” (2025-06-10) is not before “to” (2025-06-01)');
    expect(router.state.location.search).toBe('?kind=sale');
    await waitFor(() => expect(statusText()).toContain('Whole history indexed'));
  });

  it('holders: asOf=yesterday and a day after today are said, the holders now shown', async () => {
    await install({ indexed: [contract.address] });
    const { router } = renderAt(`${base}/holders?asOf=yesterday&time=abs`);
    expect((await leftOut()).parentElement).toHaveTextContent('“asOf” “yesterday” is not a day');
    expect(router.state.location.search).toBe('?time=abs');
    await screen.findByRole('table', { name: 'Holders now, largest first' });

    await act(() => router.navigate(`${base}/holders?asOf=2030-01-01`));
    await screen.findByText(/“asOf” “2030-01-01” is after today/);
    expect(router.state.location.search).toBe('');
  });

  it('a market span starting in the future is said, the whole history shown', async () => {
    await install({ indexed: [contract.address] });
    const { router } = renderAt(`${base}/market?from=2030-01-01&to=2030-02-01&wash=exclude`);
    expect((await leftOut()).parentElement).toHaveTextContent(
      '“from” (2030-01-01) is in the future',
    );
    expect(router.state.location.search).toBe('?wash=exclude');
    await screen.findByText('The market over the whole history.');
  });
});
