import type pg from 'pg';
import { canonicalAddress } from '../../lib/address';
import { collectionDetails } from '../index/contract-names';
import type { Indexer } from '../indexer/indexer';

/**
 * Whether a page of the app names a collection that is none: `/contracts/0x…` (and its
 * pages) for an address the stored contracts list, read whole, does not name and of
 * which the index holds nothing, as the query API's 404 says. Such a page is answered
 * 404 and without a link preview. From stored rows alone: a page's HTML never waits on
 * the service.
 */
export function notACollectionPage(pool: pg.Pool, indexer: Pick<Indexer, 'storedListing'>) {
  return async function notACollection(path: string): Promise<boolean> {
    const named = /^\/contracts\/([^/]+)(?:\/|$)/.exec(path);
    const address = named ? canonicalAddress(named[1]!) : null;
    if (!address) return false;
    if ((await indexer.storedListing(address)) !== 'not-listed') return false;
    return (await collectionDetails(pool, address)) === null;
  };
}
