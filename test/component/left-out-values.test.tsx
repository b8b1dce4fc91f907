import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { busiestContract, installSampleApi, renderAt, statusText } from './harness';
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

  it('a collection: a bad sort, kind and address are each said, the good values kept', async () => {
    const api = await install({ indexed: [contract.address] });
    const { router } = renderAt(`${base}?sort=banana&kind=sale,foo&address=0xzz&wash=exclude`);
    const notice = (await leftOut()).parentElement!;
    expect(notice).toHaveTextContent('“sort=banana” is no sort of this list');
    expect(notice).toHaveTextContent('“foo” is no kind of event');
    expect(notice).toHaveTextContent('“address=0xzz” is not an address');
    expect(router.state.location.search).toBe('?kind=sale&wash=exclude');
    await waitFor(() => expect(statusText()).toContain('Whole history indexed'));
    expect(api.requests.some((path) => path.includes('/events?') && path.includes('sort='))).toBe(
      false,
    );
  });

  it('the ranking: a bad window and an unknown key are said, the rest kept', async () => {
    installSampleApi();
    const { router } = renderAt('/contracts?window=fortnight&sort=-volume&page=2');
    const notice = (await leftOut()).parentElement!;
    expect(notice).toHaveTextContent('“window=fortnight” is no window of the ranking');
    expect(notice).toHaveTextContent('“page” is not a setting of this page');
    expect(router.state.location.search).toBe('?sort=-volume');
  });

  it('a wallet: a collection that is no address is said, every collection shown', async () => {
    await install({ indexed: [contract.address] });
    const wallet = `0x${'1'.padStart(64, '0')}`;
    const { router } = renderAt(`/addresses/${wallet}?collection=nope&time=abs`);
    expect((await leftOut()).parentElement).toHaveTextContent(
      '“collection=nope” is not an address (0x and up to 64 hexadecimal digits): every collection of the wallet is shown.',
    );
    expect(router.state.location.search).toBe('?time=abs');
  });
});
