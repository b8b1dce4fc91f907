import { shortenHex } from './address';
import type { CollectionAnswer } from './answers';

/** "StarkVerse Gallery", or "Contract 0x6058…44b8" while the name is not known. */
export function collectionTitle(
  collection: Pick<CollectionAnswer, 'name'> | undefined,
  address: string,
): string {
  return collection?.name ?? `Contract ${shortenHex(address)}`;
}
