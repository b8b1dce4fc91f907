import type { Contract } from '../../api/types';

/** Case-insensitive match of the text against name, symbol, type and address. */
export function filterContracts(contracts: readonly Contract[], text: string): readonly Contract[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return contracts;
  return contracts.filter((contract) =>
    [contract.name, contract.symbol, contract.type, contract.address].some((field) =>
      field?.toLowerCase().includes(needle),
    ),
  );
}
