import { Hono } from 'hono';
import { createReadPools } from '../database/read-pools';
import { createApiContext, requestReads, type ApiEnv, type QueryApiOptions } from './api-context';
import { collectionsApi } from './collections-api';
import { eventsApi } from './events-api';
import { figuresApi } from './figures-api';
import { holdersApi } from './holders-api';
import { holdersCompareApi } from './holders-compare-api';
import { lookupApi } from './lookup-api';
import { taxYearApi } from './tax-year-api';
import { tokenApi } from './token-api';
import { walletsApi } from './wallets-api';

export type { QueryApiOptions } from './api-context';

/**
 * The query API: whole-history answers from the event index, as JSON, paged by keyset
 * cursors bound to their query. Each answer about a collection says how complete and
 * fresh it is (coverage.ts); a question that needs the whole history starts the indexer
 * on it, and newest-first browsing reads deeper only as far as it is scrolled. One file a
 * resource, composed here; what their routes share is api-context.ts.
 */
export function createQueryApi(options: QueryApiOptions) {
  const reads = options.reads ?? createReadPools(options.pool);
  const api = createApiContext(options);
  const app = new Hono<ApiEnv>();
  // The request log names the route as matched (`/api/collections/:address/events`). This
  // runs for every request under /api/: one whose handler named it (`meta`, `openapi`), or
  // the proxy's catch-all (`/api/*`) answered, keeps the name it gave (`contracts`,
  // `unmatched`).
  app.use('*', async (c, next) => {
    const named = c.get('route');
    c.set('reading', requestReads(reads));
    await next();
    if (c.get('route') === named && !c.req.routePath.endsWith('*')) {
      c.set('route', c.req.routePath);
    }
  });
  return app
    .route('/', collectionsApi(api))
    .route('/', figuresApi(api))
    .route('/', eventsApi(api))
    .route('/', holdersApi(api))
    .route('/', holdersCompareApi(api))
    .route('/', tokenApi(api))
    .route('/', walletsApi(api))
    .route('/', taxYearApi(api))
    .route('/', lookupApi());
}
