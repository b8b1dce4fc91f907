import { Hono } from 'hono';
import { custodyChain } from '../../lib/custody';
import { NO_TOKEN, tokenHistory } from '../index/token';
import {
  clientOf,
  mounted,
  parse,
  pathParam,
  readOf,
  wrote,
  type ApiContext,
  type ApiEnv,
} from './api-context';
import { emptyParams, tokenParam } from './params';

/**
 * A token: its history, holder or burn, and chain of custody. Its own list is read first
 * (it holds the burn a contract list never has); a failure says the answer is as stored.
 */
export function tokenApi(api: ApiContext) {
  const { indexer } = api;
  const app = new Hono<ApiEnv>();

  app.get(mounted('token'), async (c) => {
    const params = parse(c, emptyParams);
    if (params instanceof Response) return params;
    const tokenId = pathParam(c, 'tokenId', tokenParam);
    if (tokenId instanceof Response) return tokenId;
    const found = await api.collection(c, false);
    if (found.error) return found.error;
    const failure =
      found.listing === 'listed'
        ? await indexer.token(found.address, tokenId, clientOf(c))
        : 'the service cannot be asked now';
    if (found.listing === 'listed') wrote(c);
    const { id, coverage } = await api.coverageNow(c, found.address);
    const { pool } = await readOf(c);
    const history = id === undefined ? null : await tokenHistory(pool, id, tokenId);
    return c.json({
      address: found.address,
      tokenId,
      ...(history ?? NO_TOKEN),
      custody: custodyChain(history?.events ?? []),
      tokenList: failure
        ? {
            read: false,
            failure: `The token's own list could not be read (${failure.replace(/\.$/, '')}); this history comes from stored data.`,
          }
        : { read: true },
      coverage,
    });
  });

  return app;
}
