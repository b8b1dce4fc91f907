import { Hono } from 'hono';
import type { LookupAnswer, TransactionAnswer } from '../../lib/answers';
import { lookupValue as lookupIndex } from '../index/lookup';
import { transactionEvents } from '../index/transaction';
import { mounted, parse, pathParam, readOf, type ApiEnv } from './api-context';
import { coverageOf } from './coverage';
import { emptyParams, lookupParams, lookupValue, transactionHash } from './params';

/**
 * What a whole value is to the index (the lookup box), and one transaction's changes of
 * hands: both from stored rows only, never a walk.
 */
export function lookupApi() {
  const app = new Hono<ApiEnv>();

  app.get(mounted('lookup'), async (c) => {
    const params = parse(c, lookupParams);
    if (params instanceof Response) return params;
    const raw = c.req.param('value') ?? '';
    const value = pathParam(c, 'value', lookupValue);
    if (value instanceof Response) return value;
    const { pool } = await readOf(c);
    const { id } = params.collection
      ? await coverageOf(pool, params.collection, undefined)
      : { id: undefined };
    const inView =
      params.collection && id !== undefined ? { id, address: params.collection } : undefined;
    const answer: LookupAnswer = {
      value: raw,
      matches: await lookupIndex(pool, value, inView),
    };
    return c.json(answer);
  });

  app.get(mounted('transaction'), async (c) => {
    const params = parse(c, emptyParams);
    if (params instanceof Response) return params;
    const hash = pathParam(c, 'hash', transactionHash);
    if (hash instanceof Response) return hash;
    const { pool } = await readOf(c);
    const answer: TransactionAnswer = {
      hash,
      ...(await transactionEvents(pool, hash)),
    };
    return c.json(answer);
  });

  return app;
}
