import { once } from 'node:events';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeUpstream } from '../proxy/fake-upstream';
import { indexedProxy } from '../../support/indexed-proxy';
import { usePostgresDatabases } from '../../support/postgres-databases';

const A = '0x' + '0'.repeat(60) + 'abcd';
const EVENT = {
  contract_address: A,
  event_type: 'transfer',
  event_id: '0x' + '1'.repeat(64),
  transaction_hash: '0x' + '2'.repeat(64),
  token_id: '7',
  from_address: '0x' + '0'.repeat(64),
  to_address: '0x' + '3'.repeat(64),
  timestamp: 1_700_000_000,
};

const databases = usePostgresDatabases();
const opened: (() => Promise<unknown>)[] = [];
let server: Server | undefined;
// Upstream answers held by the test: each answered (empty) when the test ends.
const held: Array<(response: Response) => void> = [];

afterEach(async () => {
  server?.closeAllConnections();
  if (server?.listening) await new Promise((resolve) => server?.close(resolve));
  server = undefined;
  for (const answer of held.splice(0)) answer(Response.json({ result: [], cursor: null }));
  for (const close of opened.splice(0).reverse()) await close();
});

/**
 * The proxy on a real socket, on a database of its own, over an upstream that lists `A`
 * (unless `listing` says to hold that too) and holds every event page until the test
 * answers it.
 */
async function proxyOnSocket(listing: 'answered' | 'held' = 'answered') {
  const upstreamSignals: AbortSignal[] = [];
  const { upstream, calls } = fakeUpstream((upstreamRequest) => {
    const { pathname } = new URL(upstreamRequest.url);
    if (pathname.endsWith('/v1/contracts') && listing === 'answered') {
      return Response.json({ result: [{ contract_address: A }], cursor: null });
    }
    upstreamSignals.push(upstreamRequest.signal);
    return new Promise<Response>((resolve) => held.push(resolve));
  });
  const database = await databases.database();
  opened.push(database.drop);
  const { proxy } = await indexedProxy({
    url: database.url,
    upstream,
    cleanups: opened,
    proxy: { gate: { concurrency: 100, queueTimeoutMs: 10_000, ratePerSecond: 0 } },
  });
  server = serve({ fetch: proxy.app.fetch, hostname: '127.0.0.1', port: 0 }) as Server;
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, upstreamSignals, calls, proxy };
}

function answerOf(port: number, path: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const client = request({ host: '127.0.0.1', port, path }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    client.on('error', reject);
    client.end();
  });
}

describe('a client that goes away', () => {
  it('leaves the upstream read it started to finish into the log, for whoever asks next', async () => {
    const { port, upstreamSignals, calls } = await proxyOnSocket();
    const client = request({ host: '127.0.0.1', port, path: `/api/v1/events/${A}` });
    client.on('error', () => {});
    client.end();
    await vi.waitFor(() => expect(upstreamSignals).toHaveLength(1));
    client.destroy();
    // The page is read once for everyone: the read goes on without its first client.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(upstreamSignals[0]!.aborted).toBe(false);
    held.shift()!(Response.json({ result: [EVENT], cursor: null }));
    await vi.waitFor(async () => {
      const answer = await answerOf(port, `/api/v1/events/${A}`);
      expect(JSON.parse(answer.body)).toEqual({ result: [EVENT], cursor: null });
    });
    // Served from the log: no second read of the page.
    expect(calls.filter((call) => call.url.includes(`/v1/events/${A}`))).toHaveLength(1);
  });
});

describe('a server that stops', () => {
  it('answers every request still waiting for the upstream with 503 at once', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const { port, upstreamSignals, proxy } = await proxyOnSocket();
      // The contracts list read first (it lists A), as by an earlier visitor.
      await proxy.indexer.listed();
      // Six lists, each a token's, each being read from the upstream (a list's read holds
      // one of the log's eight lock connections), and twenty-four more requests for them.
      const answers = Array.from({ length: 30 }, (_, i) =>
        answerOf(port, `/api/v1/events/${A}/${i % 6}`),
      );
      await vi.waitFor(() => expect(upstreamSignals).toHaveLength(6), { timeout: 5_000 });
      void proxy.stop();
      for (const answer of await Promise.all(answers)) {
        expect(answer.status).toBe(503);
        expect(JSON.parse(answer.body)).toMatchObject({ error: { message: /restarting/ } });
      }
      // One that arrives after the stop is not sent upstream.
      expect((await answerOf(port, `/api/v1/events/${A}/99`)).status).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(upstreamSignals).toHaveLength(6);
      expect(warnings.map(String)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('answers requests waiting for the contracts list (is the collection listed?) with 503 at once', async () => {
    const { port, upstreamSignals, proxy } = await proxyOnSocket('held');
    const answers = Array.from({ length: 10 }, () => answerOf(port, `/api/v1/events/${A}`));
    await vi.waitFor(() => expect(upstreamSignals).toHaveLength(1), { timeout: 5_000 });
    void proxy.stop();
    for (const answer of await Promise.all(answers)) {
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { message: /restarting/ } });
    }
  });
});
