import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  clientShare,
  COSTLY_MS,
  type ClientShareSettings,
} from '../../../src/server/http/client-share';
import { awayFromTurn } from '../../../src/server/http/turn-context';

const OFF: ClientShareSettings = {
  costPerSecondMs: 0,
  costBurstMs: 1,
  costlyAtOnce: 0,
  atOnce: 0,
  inFlightPerClient: 0,
};

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/**
 * The share in front of a small app on a real socket, over a "database" of two
 * connections, as the server's pool is a few: `/report/:n` holds one until the test lets
 * it go (`held`), `/page` takes one for a moment, `/stream` sends a body the test ends.
 * Its clock is the test's: a request takes what the test says.
 */
async function listening(settings: Partial<ClientShareSettings>) {
  let clock = 0;
  const share = clientShare({ ...OFF, ...settings }, 0, () => clock);
  const database = slots(2);
  const held: Array<() => void> = [];
  const streams: ReadableStreamDefaultController<Uint8Array>[] = [];
  const app = new Hono();
  app.get('/healthz', (c) => c.text('ok'));
  app.use('*', share);
  app.get('/report/:n', async (c) => {
    const release = await database.take();
    await new Promise<void>((resolve) => held.push(resolve));
    release();
    return c.text('report');
  });
  app.get('/page', async (c) => {
    (await database.take())();
    return c.text('page');
  });
  // A read of the service: the test says when it answers.
  const service: Array<() => void> = [];
  app.get('/service', async (c) => {
    await awayFromTurn(() => new Promise<void>((resolve) => service.push(resolve)));
    (await database.take())();
    return c.text('served');
  });
  app.get('/service-twice', async (c) => {
    const read = () => awayFromTurn(() => new Promise<void>((resolve) => service.push(resolve)));
    await Promise.all([read(), read()]);
    return c.text('served twice');
  });
  // Work left running past the answer (as a head read is) keeps the request's context.
  app.get('/leaves-work', (c) => {
    void awayFromTurn(() => new Promise<void>((resolve) => service.push(resolve)));
    return c.text('answered');
  });
  app.get('/stream', () => {
    const body = new ReadableStream<Uint8Array>({ start: (c) => void streams.push(c) });
    return new Response(body);
  });
  server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }) as Server;
  await new Promise((resolve) => server!.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const get = (path: string, from: string) => answer(port, path, from);
  return {
    get,
    share,
    database,
    held,
    streams,
    service,
    advance: (ms: number) => (clock += ms),
    /** Lets every held report go, as they come, until `requests` are all answered. */
    async finish<T>(requests: Promise<T>[]) {
      let settled = false;
      const all = Promise.all(requests).finally(() => (settled = true));
      while (!settled) {
        await vi.waitFor(() => expect(held.length > 0 || settled).toBe(true));
        for (const resolve of held.splice(0)) resolve();
      }
      return all;
    },
    /** Makes `/report/:n` a costly kind: one of them takes twice COSTLY_MS. */
    async learnCostly() {
      const first = get('/report/0', '127.0.0.99');
      await vi.waitFor(() => expect(held).toHaveLength(1));
      clock += 2 * COSTLY_MS;
      held.shift()!();
      await first;
      await vi.waitFor(() => expect(share.stats().clientsInFlight).toBe(0));
    },
  };
}

/** `count` places; `take` waits for one and resolves with its release. */
function slots(count: number) {
  let free = count;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free += 1;
  };
  return {
    take(): Promise<() => void> {
      if (free > 0) {
        free -= 1;
        return Promise.resolve(release);
      }
      return new Promise((resolve) => waiting.push(() => resolve(release)));
    },
    waiting: () => waiting.length,
  };
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
}

function answer(port: number, path: string, from: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, localAddress: from, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body }),
      );
    })
      .on('error', reject)
      .end();
  });
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('requests at once', { timeout: 20_000 }, () => {
  it('gives a quiet client the next turn, ahead of 16 clients asking back to back', async () => {
    // Not costly (never learned): without the bound each would take a connection at once.
    const server = await listening({ atOnce: 2 });
    const flood = () => range(16).map((i) => server.get(`/report/${i + 1}`, `127.0.0.${10 + i}`));
    // A first round: each of the 16 clients uses 10 ms of the server.
    const first = flood();
    for (let answered = 0; answered < 16; answered += 1) {
      await vi.waitFor(() => expect(server.held.length).toBeGreaterThan(0));
      server.advance(10);
      server.held.shift()!();
    }
    await Promise.all(first);
    // They ask again at once: two run, fourteen wait, each client with one request waiting.
    const second = flood();
    await vi.waitFor(() => expect(server.share.stats().turns).toEqual({ running: 2, waiting: 14 }));
    const quiet = server.get('/page', '127.0.0.200');
    await vi.waitFor(() => expect(server.share.stats().turns).toEqual({ running: 2, waiting: 15 }));
    // One report ends: its turn goes to the quiet client, who used nothing lately. Its
    // page is answered while the other fourteen still wait, who would be ahead of it in
    // the database's line.
    await vi.waitFor(() => expect(server.held).toHaveLength(2));
    server.held.shift()!();
    expect(await quiet).toMatchObject({ status: 200, body: 'page' });
    expect(server.share.stats().turns!.waiting).toBeGreaterThanOrEqual(13);
    const answers = await server.finish(second);
    expect(answers.map((a) => a.status)).toEqual(range(16).map(() => 200));
  });

  it('gives the turn to others while a request waits on the service, and takes one back after', async () => {
    const server = await listening({ atOnce: 1 });
    const waiting = server.get('/service', '127.0.0.10');
    await vi.waitFor(() => expect(server.service).toHaveLength(1));
    expect(server.share.stats().turns).toEqual({ running: 0, waiting: 0 });
    // Its turn is free: another client's page is answered meanwhile.
    expect(await server.get('/page', '127.0.0.11')).toMatchObject({ status: 200 });
    // The service answers while a report holds the only turn: the request waits for it.
    const report = server.get('/report/1', '127.0.0.12');
    await vi.waitFor(() => expect(server.held).toHaveLength(1));
    server.service[0]!();
    await vi.waitFor(() => expect(server.share.stats().turns).toEqual({ running: 1, waiting: 1 }));
    server.held.shift()!();
    expect(await report).toMatchObject({ status: 200 });
    expect(await waiting).toMatchObject({ status: 200, body: 'served' });
    expect(server.share.stats().turns).toEqual({ running: 0, waiting: 0 });
  });

  it('never holds two turns for reads side by side, nor one for work left running after the answer', async () => {
    const server = await listening({ atOnce: 1 });
    const twice = server.get('/service-twice', '127.0.0.10');
    await vi.waitFor(() => expect(server.service).toHaveLength(2));
    expect(server.share.stats().turns).toEqual({ running: 0, waiting: 0 });
    server.service.shift()!();
    server.service.shift()!();
    expect(await twice).toMatchObject({ status: 200, body: 'served twice' });
    expect(server.share.stats().turns).toEqual({ running: 0, waiting: 0 });

    expect(await server.get('/leaves-work', '127.0.0.11')).toMatchObject({ body: 'answered' });
    await vi.waitFor(() => expect(server.service).toHaveLength(1));
    server.service.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.share.stats().turns).toEqual({ running: 0, waiting: 0 });
    expect(await server.get('/page', '127.0.0.12')).toMatchObject({ status: 200 });
  });

  it('gives the turn back when the handler returns: a reader that never reads holds none', async () => {
    const server = await listening({ atOnce: 1 });
    const stalled = server.get('/stream', '127.0.0.10');
    await vi.waitFor(() => expect(server.streams).toHaveLength(1));
    expect(await server.get('/page', '127.0.0.11')).toMatchObject({ status: 200 });
    server.streams[0]!.close();
    await stalled;
  });
});

describe('costly requests at once', { timeout: 20_000 }, () => {
  it.each([
    ['one address', 1],
    ['16 addresses', 16],
  ])(
    'answers a quiet client while 16 costly requests from %s wait for their turn',
    async (_, addresses) => {
      const server = await listening({ costlyAtOnce: 1 });
      await server.learnCostly();
      const floods = range(16).map((i) =>
        server.get(`/report/${i + 1}`, `127.0.0.${10 + (i % addresses)}`),
      );
      await vi.waitFor(() =>
        expect(server.share.stats().costly).toEqual({ running: 1, waiting: 15 }),
      );
      // The database has a connection left: the quiet client's page is answered now.
      expect(await server.get('/page', '127.0.0.200')).toMatchObject({ status: 200, body: 'page' });
      const answers = await server.finish(floods);
      expect(answers.map((a) => a.status)).toEqual(range(16).map(() => 200));
    },
  );

  it('judges a kind by its share of the server, not by how long a busy server took', async () => {
    const server = await listening({ costlyAtOnce: 1 });
    // Nine answers streaming all along, from other addresses.
    const streaming = range(9).map((i) => server.get('/stream', `127.0.0.${30 + i}`));
    await vi.waitFor(() => expect(server.streams).toHaveLength(9));
    // A report that takes four times COSTLY_MS beside them: 40 ms of the server's time.
    const first = server.get('/report/1', '127.0.0.200');
    await vi.waitFor(() => expect(server.held).toHaveLength(1));
    server.advance(4 * COSTLY_MS);
    server.held.shift()!();
    expect((await first).status).toBe(200);
    // So the next one is light: it runs without waiting for a costly slot.
    const second = server.get('/report/2', '127.0.0.200');
    await vi.waitFor(() => expect(server.held).toHaveLength(1));
    expect(server.share.stats().costly).toEqual({ running: 0, waiting: 0 });
    server.held.shift()!();
    expect((await second).status).toBe(200);
    for (const stream of server.streams) stream.close();
    await Promise.all(streaming);
  });

  it('without the bound, the same flood takes the database and the quiet client waits behind it', async () => {
    const server = await listening({});
    const floods = range(16).map((i) => server.get(`/report/${i + 1}`, `127.0.0.${10 + i}`));
    await vi.waitFor(() => expect(server.held).toHaveLength(2));
    const quiet = server.get('/page', '127.0.0.200');
    await vi.waitFor(() => expect(server.database.waiting()).toBe(15));
    await server.finish(floods);
    expect((await quiet).status).toBe(200);
  });

  it('gives a freed slot to the client that has spent least, not to the one queued first', async () => {
    const server = await listening({ costlyAtOnce: 1, costPerSecondMs: 1, costBurstMs: 100_000 });
    await server.learnCostly();
    const order: string[] = [];
    const track = (from: string, path: string) =>
      server.get(path, from).then((a) => (order.push(from), a));
    // 127.0.0.10 runs one report and queues two; 127.0.0.11 comes last with one.
    const heavy = [1, 2, 3].map((n) => track('127.0.0.10', `/report/${n}`));
    await vi.waitFor(() => expect(server.share.stats().costly).toEqual({ running: 1, waiting: 2 }));
    const light = track('127.0.0.11', '/report/4');
    await vi.waitFor(() => expect(server.share.stats().costly).toEqual({ running: 1, waiting: 3 }));
    // The first report spends 10 s of 127.0.0.10's budget.
    await vi.waitFor(() => expect(server.held).toHaveLength(1));
    server.advance(10_000);
    await server.finish([...heavy, light]);
    expect(order.slice(0, 2)).toEqual(['127.0.0.10', '127.0.0.11']);
  });
});

describe('requests in flight per address', { timeout: 20_000 }, () => {
  it('refuses an address past its bound with 429 and Retry-After, and no one else', async () => {
    const server = await listening({ inFlightPerClient: 2 });
    const holding = [1, 2].map(() => server.get('/stream', '127.0.0.10'));
    await vi.waitFor(() => expect(server.streams).toHaveLength(2));
    const refused = await server.get('/page', '127.0.0.10');
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('1');
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { kind: 'client_rate_limited', status: 429, retryAfterSeconds: 1 },
    });
    // Health is answered whatever the address holds; other addresses are served.
    expect((await server.get('/healthz', '127.0.0.10')).status).toBe(200);
    expect((await server.get('/page', '127.0.0.11')).status).toBe(200);
    for (const stream of server.streams) stream.close();
    await Promise.all(holding);
    await vi.waitFor(() => expect(server.share.stats().clientsInFlight).toBe(0));
    expect((await server.get('/page', '127.0.0.10')).status).toBe(200);
  });
});

describe('cost budget per client', { timeout: 20_000 }, () => {
  it('charges a request the time it took, and refuses the client in debt until it is paid back', async () => {
    // 10 ms of server time a second, 100 ms banked.
    const server = await listening({ costPerSecondMs: 10, costBurstMs: 100 });
    expect((await server.get('/page', '127.0.0.10')).status).toBe(200);
    const report = server.get('/report/1', '127.0.0.10');
    await vi.waitFor(() => expect(server.held).toHaveLength(1));
    server.advance(1_000);
    await server.finish([report]);
    await vi.waitFor(() => expect(server.share.stats().clientsInFlight).toBe(0));

    const refused = await server.get('/page', '127.0.0.10');
    expect(refused.status).toBe(429);
    // A debt of 100 ms (the most it may owe) paid back at 10 ms a second.
    expect(Number(refused.retryAfter)).toBe(11);
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { kind: 'client_rate_limited', status: 429, retryAfterSeconds: 11 },
    });
    expect((await server.get('/page', '127.0.0.11')).status).toBe(200);
    server.advance(11_000);
    expect((await server.get('/page', '127.0.0.10')).status).toBe(200);
  });

  it('charges a streamed answer until its last byte is sent', async () => {
    const server = await listening({ costPerSecondMs: 10, costBurstMs: 100 });
    const streamed = server.get('/stream', '127.0.0.10');
    await vi.waitFor(() => expect(server.streams).toHaveLength(1));
    server.streams[0]!.enqueue(new TextEncoder().encode('a,b\n'));
    server.advance(1_000);
    server.streams[0]!.close();
    expect((await streamed).body).toBe('a,b\n');
    await vi.waitFor(() => expect(server.share.stats().clientsInFlight).toBe(0));
    expect((await server.get('/page', '127.0.0.10')).status).toBe(429);
  });
});
