import { useQuery } from '@tanstack/react-query';
import { collectionDirectoryQueryOptions } from '../api/contracts';
import type { Contract } from '../lib/contract';

/** A collection's name, image, symbol and type from the directory; undefined until found. */
export function useContract(address: string): Contract | undefined {
  const directory = useQuery(collectionDirectoryQueryOptions());
  return directory.data?.contracts.find((item) => item.address === address);
}
