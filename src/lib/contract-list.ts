import { addressMatcher } from './address-match';
import type { Contract } from './contract';

/**
 * Case-insensitive match of the text against name, symbol, type and address; an address
 * also as the list shows it ("0x6058…44b8", "0x6058": see address-match.ts). The pages
 * no longer filter loaded contracts (the ranking's search is the server's); what is left
 * of this file is the lookup tests' (test/unit/lib/lookup.test.ts) until they drop it.
 */
export function filterContracts(contracts: readonly Contract[], text: string): readonly Contract[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return contracts;
  const address = addressMatcher(needle);
  return contracts.filter(
    (contract) =>
      address?.(contract.address) ||
      [contract.name, contract.symbol, contract.type, contract.address].some((field) =>
        field?.toLowerCase().includes(needle),
      ),
  );
}
