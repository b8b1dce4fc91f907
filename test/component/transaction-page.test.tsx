import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { canonicalAddress } from '../../src/lib/address';
import { formatAmount, readPrice } from '../../src/lib/price';
import { rawRecords } from '../support/raw-records';
import { busiestContract, renderAt } from './harness';
import { indexedApiForTests } from './indexed-api';

/**
 * A transaction's page: its changes of hands as the service's own records tell them,
 * each party a way to its wallet, the explorer for the rest; a hash never seen said so.
 */
const install = indexedApiForTests();
const contract = busiestContract();

describe('the transaction page', () => {
  it('shows a sale in it with its price, its parties’ wallets and the explorer', async () => {
    const api = await install({ indexed: [contract.address] });
    const records = await rawRecords(api.service, contract.address);
    const sale = records.find((r) => r.event_type === 'sale' && r.currency_address)!;
    const hash = canonicalAddress(sale.transaction_hash!)!;
    const transfers = records.filter(
      (r) => r.event_type !== 'sale' && canonicalAddress(r.transaction_hash!) === hash,
    );
    renderAt(`/transactions/${hash.toUpperCase().replace('0X', '0x')}`);
    // The page's code loads first: a bound on a hang, not a wait.
    const heading = await screen.findByRole('heading', { level: 2 }, { timeout: 30_000 });
    expect(heading).toHaveTextContent(
      transfers.length === 1 ? 'One change of hands' : `${transfers.length} changes of hands`,
    );
    const changes = screen.getAllByRole('listitem');
    expect(changes).toHaveLength(transfers.length);
    const price = readPrice({ price: sale.price, currencyAddress: sale.currency_address })!;
    expect(price.kind).toBe('known');
    if (price.kind !== 'known') return;
    const sold = changes.find((change) => within(change).queryByText('Sale'))!;
    expect(sold).toHaveTextContent(
      `for ${formatAmount(price.units, price.currency.decimals)} ${price.currency.symbol}`,
    );
    // Who held the token before and after: the transfer twin's parties.
    const twin = transfers.find((t) => t.token_id === sale.token_id)!;
    for (const party of [twin.from_address!, twin.to_address!]) {
      const address = canonicalAddress(party)!;
      expect(within(sold).getByTitle(`${address} — open this wallet`)).toHaveAttribute(
        'href',
        `/addresses/${address}`,
      );
    }
    expect(
      screen.getByRole('link', { name: `Open transaction ${hash} in voyager.online (new tab)` }),
    ).toHaveAttribute('href', `https://voyager.online/tx/${hash}`);
  });

  it('says a hash the index has not seen was not seen, and a bad one is no hash', async () => {
    await install();
    const { unmount } = renderAt(`/transactions/0x${'ab'.repeat(32)}`);
    expect(await screen.findByText('Not seen', {}, { timeout: 30_000 })).toBeInTheDocument();
    unmount();
    renderAt('/transactions/0xnothex');
    expect(await screen.findByText('This is not a transaction hash')).toBeInTheDocument();
  });
});
