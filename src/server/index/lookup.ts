import type pg from 'pg';
import type { LookupMatch } from '../../lib/answers';
import { addressBytes } from './sql';

/**
 * What a value is to the index, from stored rows alone (the service is never asked): a
 * collection of the contracts list, a wallet met in a change of hands, a transaction
 * met, a token of the collection in view. A felt may be several at once.
 *
 * `address` is the value as a canonical 0x address (a hash has the same form), absent
 * for a decimal; `tokenId` the value as a decimal token id.
 */
export async function lookupValue(
  pool: pg.Pool,
  value: { address?: string; tokenId?: string },
  collection?: { id: number; address: string },
): Promise<LookupMatch[]> {
  const matches: LookupMatch[] = [];
  const { address, tokenId } = value;
  if (address !== undefined) {
    const bytes = addressBytes(address);
    const { rows } = await pool.query<{
      name: string | null;
      listed: boolean | null;
      wallet: boolean;
      tx: boolean;
    }>(
      `SELECT ic.name, ic.listed OR ic.records > 0 AS listed,
         EXISTS (SELECT 1 FROM idx_changes WHERE from_addr = $2)
           OR EXISTS (SELECT 1 FROM idx_changes WHERE to_addr = $2) AS wallet,
         EXISTS (SELECT 1 FROM idx_changes WHERE tx = $2) AS tx
       FROM (SELECT 1) one LEFT JOIN idx_contracts ic ON ic.address = $1`,
      [address, bytes],
    );
    const row = rows[0];
    if (row?.listed) matches.push({ kind: 'collection', address, name: row.name });
    if (row?.wallet) matches.push({ kind: 'wallet', address });
    if (row?.tx) matches.push({ kind: 'transaction', hash: address });
  }
  if (collection && tokenId !== undefined) {
    const { rowCount } = await pool.query(
      'SELECT 1 FROM idx_tokens WHERE contract_id = $1 AND token_id = $2',
      [collection.id, tokenId],
    );
    if (rowCount) matches.push({ kind: 'token', collection: collection.address, tokenId });
  }
  return matches;
}
