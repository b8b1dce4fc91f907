import type pg from 'pg';

/**
 * Each contract's number in the index, made the first time the contract is met. Made on
 * a connection of its own (not the ingest's transaction), so a number handed out is never
 * rolled back, and kept in memory: a contract's number never changes.
 */
export function contractIds(pool: pg.Pool) {
  const known = new Map<string, number>();
  return {
    async idOf(address: string): Promise<number> {
      const cached = known.get(address);
      if (cached !== undefined) return cached;
      const id = await contractIdOn(pool, address);
      known.set(address, id);
      return id;
    },
  };
}

/**
 * The contract's number, made on `db` when it has none (in its transaction, if any). Read
 * first: the upsert locks the contract's row, till the end of a caller's transaction.
 */
export async function contractIdOn(db: pg.Pool | pg.ClientBase, address: string): Promise<number> {
  const { rows: found } = await db.query<{ id: number }>(
    'SELECT id FROM idx_contracts WHERE address = $1',
    [address],
  );
  if (found[0]) return found[0].id;
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO idx_contracts (address) VALUES ($1)
     ON CONFLICT (address) DO UPDATE SET address = excluded.address RETURNING id`,
    [address],
  );
  return rows[0]!.id;
}

export type ContractIds = ReturnType<typeof contractIds>;
