import { screen } from '@testing-library/react';
import { expect } from 'vitest';

/**
 * Every address on the screen with a filter beside it: the filter narrows the
 * collection's events to it, and the address itself, just before it, opens its wallet.
 * Returns how many there are.
 */
export function expectWalletAndFilter(collection: string, label: RegExp): number {
  const filters = screen.getAllByRole('link', { name: label });
  for (const filter of filters) {
    const address = filter.getAttribute('aria-label')!.split(' ').at(-1)!;
    expect(address).toMatch(/^0x[0-9a-f]{64}$/);
    expect(filter).toHaveAttribute(
      'href',
      expect.stringMatching(new RegExp(`^/contracts/${collection}\\?address=${address}(&|$)`)),
    );
    expect(filter.previousElementSibling).toHaveAttribute('href', `/addresses/${address}`);
  }
  return filters.length;
}
