import type pg from 'pg';
import type { CollectionRef } from '../../lib/answers';

/** What the contracts list says of a collection, as the overview answers it. */
export interface CollectionDetails {
  name: string | null;
  symbol: string | null;
  image: string | null;
  type: string | null;
}

/** A collection's name, symbol, image and type; null when the index has never met it. */
export async function collectionDetails(
  pool: pg.Pool,
  address: string,
): Promise<CollectionDetails | null> {
  const { rows } = await pool.query<CollectionDetails>(
    'SELECT name, symbol, image, contract_type AS type FROM idx_contracts WHERE address = $1',
    [address],
  );
  return rows[0] ?? null;
}

/** A collection's name and symbol as answers name it (null each when not known). */
export async function collectionRef(pool: pg.Pool, address: string): Promise<CollectionRef> {
  const { rows } = await pool.query<{ name: string | null; symbol: string | null }>(
    'SELECT name, symbol FROM idx_contracts WHERE address = $1',
    [address],
  );
  return { address, name: rows[0]?.name ?? null, symbol: rows[0]?.symbol ?? null };
}
