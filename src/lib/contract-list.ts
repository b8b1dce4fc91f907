import { addressMatcher } from './address-match';
import { sortedBy } from './arrays';
import type { Contract } from './contract';
import type { SortState } from './view-state';

/** Filtering and ordering of loaded contracts, pure like their events counterpart. */

/** The columns the contract list can be sorted by, as the URL names them. */
export const CONTRACT_SORTS = ['name', 'symbol', 'type', 'address'] as const;
export type ContractSort = (typeof CONTRACT_SORTS)[number];

/**
 * Case-insensitive match of the text against name, symbol, type and address; an address
 * also as the list shows it ("0x6058…44b8", "0x6058": see address-match.ts).
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

const fields: Record<ContractSort, (contract: Contract) => string | undefined> = {
  name: (contract) => contract.name,
  symbol: (contract) => contract.symbol,
  type: (contract) => contract.type,
  address: (contract) => contract.address,
};

/** Alphabetical, ignoring case and accents, missing values first; stable for ties. */
export function sortContracts(
  contracts: readonly Contract[],
  sort: SortState<ContractSort> | null,
): readonly Contract[] {
  if (!sort) return contracts;
  const field = fields[sort.id];
  return sortedBy(
    contracts,
    (a, b) => (field(a) ?? '').localeCompare(field(b) ?? '', 'en', { sensitivity: 'base' }),
    sort.desc,
  );
}
