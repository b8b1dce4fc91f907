import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { contractsQueryOptions } from '../api/contracts';
import { shortenHex } from '../lib/address';
import type { Contract } from '../lib/contract';

/**
 * A contract's name, image, symbol and type. The service has no "one contract" endpoint,
 * so they come from the contract list (usually cached from the list page); undefined
 * until it is found there.
 */
export function useContract(address: string): Contract | undefined {
  const contracts = useInfiniteQuery(contractsQueryOptions());
  return useMemo(
    () =>
      contracts.data?.pages.flatMap((page) => page.items).find((item) => item.address === address),
    [contracts.data, address],
  );
}

/** "StarkVerse Gallery", or "Contract 0x6058…44b8" while the name is not known. */
export function contractName(contract: Contract | undefined, address: string): string {
  return contract?.name ?? `Contract ${shortenHex(address)}`;
}
