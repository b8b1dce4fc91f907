import type pg from 'pg';
import { overview } from '../index/figures';
import { holders } from '../index/holders';
import { NO_TOKEN, tokenHistory } from '../index/token';
import { walletCollections } from '../index/wallet';
import {
  collectionLayout,
  holdersLayout,
  marketLayout,
  tokenLayout,
  walletLayout,
  type PreviewLayout,
} from './layout';

/**
 * What a link points to: a collection, its holders or its market, one of its tokens, or a
 * wallet (canonical values).
 */
export type PreviewTarget =
  | { kind: 'collection' | 'holders' | 'market'; address: string }
  | { kind: 'token'; address: string; tokenId: string }
  | { kind: 'wallet'; address: string };

/**
 * The preview of a target, read from the index alone: a link's card must never wait on
 * the service, so what is not indexed yet is shown as such.
 */
export async function readPreview(pool: pg.Pool, target: PreviewTarget): Promise<PreviewLayout> {
  if (target.kind === 'wallet') {
    return walletLayout(target.address, await walletCollections(pool, target.address));
  }
  const { rows } = await pool.query<{ id: number; name: string | null; symbol: string | null }>(
    'SELECT id, name, symbol FROM idx_contracts WHERE address = $1',
    [target.address],
  );
  const row = rows[0];
  const facts = { address: target.address, name: row?.name ?? null, symbol: row?.symbol ?? null };
  switch (target.kind) {
    case 'collection':
      return collectionLayout(facts, row ? await overview(pool, row.id) : null);
    case 'market':
      return marketLayout(facts, row ? await overview(pool, row.id) : null);
    case 'holders': {
      const now = row ? await holders(pool, row.id, { limit: 1, after: null }) : null;
      return holdersLayout(facts, now && { ...now, top: now.holders[0] ?? null });
    }
  }
  const token = row ? await tokenHistory(pool, row.id, target.tokenId) : NO_TOKEN;
  return tokenLayout(facts, target.tokenId, token);
}
