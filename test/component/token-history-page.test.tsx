import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenIdToHex } from '../../src/lib/token-id';
import { servedEventCount } from '../../src/server/sample-service';
import { busiestContract, installSampleApi, renderAt, smallDataset } from './harness';

afterEach(() => vi.restoreAllMocks());

/** A token of the busiest contract with several events. */
function busyToken() {
  const dataset = smallDataset();
  const contract = busiestContract(dataset);
  for (let index = 0; index < dataset.tokenCount; index++) {
    const token = dataset.token(index);
    if (token.contract === contract && dataset.tokenEvents(token).length >= 4) {
      return { contract, token };
    }
  }
  throw new Error('no busy token');
}

describe('token history page', () => {
  it.each(['deployed', 'documented'] as const)(
    'loads every page, orders by time and tells the provenance (%s)',
    async (profile) => {
      const { contract, token } = busyToken();
      // Deployed: each sale is two records, one row.
      const records = servedEventCount(smallDataset(), profile, { token });
      installSampleApi({ profile });
      renderAt(`/contracts/${contract.address}/tokens/${token.id}`);
      await screen.findByRole('table');
      await waitFor(() =>
        expect(screen.getByText(`all ${records} events loaded`)).toBeInTheDocument(),
      );
      const rows = screen.getAllByRole('row').filter((row) => row.querySelector('time'));
      const times = rows.map((row) =>
        Date.parse(row.querySelector('time')!.getAttribute('datetime')!),
      );
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      expect(within(rows[0]!).getAllByRole('cell')[0]).toHaveTextContent('Mint');
      expect(screen.getByText('Minted')).toBeInTheDocument();
      expect(screen.getByText('Distinct owners')).toBeInTheDocument();
    },
  );

  it('shows the same history for a hex id and canonicalises the URL to decimal', async () => {
    const { contract, token } = busyToken();
    installSampleApi();
    const { router } = renderAt(
      `/contracts/${contract.address}/tokens/${tokenIdToHex(token.id).toUpperCase().replace('0X', '0x')}`,
    );
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(
        `/contracts/${contract.address}/tokens/${token.id}`,
      ),
    );
    expect(await screen.findByRole('table')).toBeInTheDocument();
  });

  it('explains a malformed token id', async () => {
    const { contract } = busyToken();
    installSampleApi();
    renderAt(`/contracts/${contract.address}/tokens/12abc`);
    expect(
      await screen.findByRole('heading', { name: 'This is not a token id' }),
    ).toBeInTheDocument();
  });

  it('says when a token has no events', async () => {
    const { contract } = busyToken();
    installSampleApi();
    renderAt(`/contracts/${contract.address}/tokens/999999999999999999`);
    expect(await screen.findByText('No events for this token')).toBeInTheDocument();
  });
});

describe('lookup box', () => {
  it('goes to a contract or a token, and explains invalid input inline', async () => {
    const { contract, token } = busyToken();
    installSampleApi();
    const { router } = renderAt('/contracts');
    const input = await screen.findByRole('textbox', { name: /go to a contract/i });
    await userEvent.type(input, '0xnothex{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'An address is 0x followed by up to 64 hexadecimal digits.',
    );
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(router.state.location.pathname).toBe('/contracts');

    await userEvent.clear(input);
    await userEvent.type(input, `${contract.address} ${token.id}{Enter}`);
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(
        `/contracts/${contract.address}/tokens/${token.id}`,
      ),
    );

    await userEvent.type(
      screen.getByRole('textbox', { name: /go to a contract/i }),
      `${contract.address.toUpperCase().replace('0X', '0x')}{Enter}`,
    );
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/contracts/${contract.address}`),
    );
  });
});
