import type pg from 'pg';
import type { TokenAnswer } from '../../lib/answers';
import { EVENT_COLUMNS, EVENT_FROM, eventRow, type EventRecord } from './event-rows';
import { hexOf } from './sql';

/** A token the index holds nothing of (its collection not indexed). */
export const NO_TOKEN: TokenAnswer = {
  owner: null,
  since: null,
  minted: false,
  burned: false,
  events: [],
};

export async function tokenHistory(
  pool: pg.Pool,
  contractId: number,
  tokenId: string,
): Promise<TokenAnswer> {
  const [events, state] = await Promise.all([
    pool.query<EventRecord>(
      `SELECT ${EVENT_COLUMNS} FROM ${EVENT_FROM}
       WHERE c.contract_id = $1 AND c.token_id = $2::numeric
       ORDER BY c.ts, c.rank, c.id`,
      [contractId, tokenId],
    ),
    pool.query<{ owner: Buffer; since: string; minted: boolean; burned: boolean }>(
      'SELECT owner, since, minted, burned FROM idx_tokens WHERE contract_id = $1 AND token_id = $2::numeric',
      [contractId, tokenId],
    ),
  ]);
  const token = state.rows[0];
  return {
    owner: token && !token.burned ? hexOf(token.owner) : null,
    since: token ? Number(token.since) : null,
    minted: token?.minted ?? false,
    burned: token?.burned ?? false,
    events: events.rows.map(eventRow),
  };
}
