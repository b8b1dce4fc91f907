import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerOptions, RequestLog } from '../../../src/server/compose';
import { generateDataset } from '../../../src/server/sample-service';
import { findGc } from '../../support/gc';
import { useIndexedSample } from '../../support/indexed-sample';

/**
 * Exports over real sockets, against the server's code on a real PostgreSQL: a client
 * that never reads holds the server to what its socket takes, not the whole file.
 */
const dataset = generateDataset({ seed: 3, contracts: 1, events: 20_000 });
const contract = dataset.contracts[0]!;
const exportPath = `/api/collections/${contract.address}/export?format=json`;
const SLOW_CLIENTS = 20;
const MEMORY_BOUND = 50 * 1024 * 1024;

const servers: Server[] = [];
const sockets: Socket[] = [];

/**
 * Per test, the indexed sample's proxy served on a port of its own, its contract's whole
 * history indexed, and the server's side of each request (`responses`).
 */
function setUpWith(options: Partial<ServerOptions>) {
  const setUp = useIndexedSample(dataset, options);
  // Registered after the sample's own: clients and server go before its database.
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  return async () => {
    const sample = await setUp();
    await sample.proxy.indexer!.whole(contract.address).done;
    const responses: ServerResponse[] = [];
    const server = await new Promise<Server>((resolve) => {
      const started = serve({ fetch: sample.proxy.app.fetch, hostname: '127.0.0.1', port: 0 }, () =>
        resolve(started as Server),
      ) as Server;
    });
    servers.push(server);
    server.on('request', (_request, response: ServerResponse) => responses.push(response));
    const { port } = server.address() as AddressInfo;
    return { ...sample, port, responses };
  };
}

/**
 * A client that asks for `path` (closing after it) and reads nothing past the answer's
 * first bytes (its status line, headers and whatever came with them), from `localAddress`
 * (a loopback address: one client each). `readRest` reads on to the end.
 */
function openUnread(port: number, path: string, localAddress = '127.0.0.1') {
  const socket = connect({ host: '127.0.0.1', port, localAddress });
  sockets.push(socket);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
  return new Promise<{ socket: Socket; head: string; readRest: () => Promise<Answer> }>(
    (resolve, reject) => {
      socket.once('error', reject);
      socket.once('data', (first: Buffer) => {
        socket.pause();
        const readRest = () =>
          new Promise<Answer>((done) => {
            const chunks = [first];
            socket.on('data', (chunk: Buffer) => chunks.push(chunk));
            socket.once('end', () => done(answerOf(Buffer.concat(chunks))));
            socket.resume();
          });
        resolve({ socket, head: first.toString('latin1').split('\r\n\r\n')[0]!, readRest });
      });
    },
  );
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A whole HTTP/1.1 answer as received, its chunked body put together. */
function answerOf(received: Buffer): Answer {
  const split = received.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = received.subarray(0, split).toString('latin1').split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  let rest = received.subarray(split + 4);
  if (headers['transfer-encoding'] !== 'chunked') {
    return { status: Number(statusLine!.split(' ')[1]), headers, body: rest };
  }
  const parts: Buffer[] = [];
  for (;;) {
    const end = rest.indexOf('\r\n');
    const size = parseInt(rest.subarray(0, end).toString('latin1'), 16);
    if (size === 0) break;
    parts.push(rest.subarray(end + 2, end + 2 + size));
    rest = rest.subarray(end + 2 + size + 2);
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body: Buffer.concat(parts) };
}

/** A whole answer to `path` asked from `localAddress`. */
const ask = async (port: number, path: string, localAddress: string) =>
  (await openUnread(port, path, localAddress)).readRest();

const memory = () => {
  const { heapUsed, arrayBuffers, rss } = process.memoryUsage();
  return { held: heapUsed + arrayBuffers, rss };
};

describe('exports to slow readers', { timeout: 180_000 }, () => {
  const setUp = setUpWith({ downloads: { perClient: SLOW_CLIENTS, max: SLOW_CLIENTS } });

  it(`hold the server to what ${SLOW_CLIENTS} unread sockets take, not the whole files`, async () => {
    const gc = findGc();
    if (!gc) throw new Error('Cannot measure the heap: no gc (run node with --expose-gc).');
    const { port, responses, pool } = await setUp();
    // One export read whole: its size, and the code warmed up.
    const started = performance.now();
    const whole = await (await fetch(`http://127.0.0.1:${port}${exportPath}`)).arrayBuffer();
    const wholeMs = performance.now() - started;
    // Were the whole files kept, the bound would be passed several times over.
    expect(whole.byteLength * SLOW_CLIENTS).toBeGreaterThan(3 * MEMORY_BOUND);
    gc();
    gc();
    const before = memory();

    const clients = await Promise.all(
      Array.from({ length: SLOW_CLIENTS }, () => openUnread(port, exportPath)),
    );
    for (const { head } of clients) expect(head).toMatch(/^HTTP\/1\.1 200/);
    const exporting = responses.slice(1);
    expect(exporting).toHaveLength(SLOW_CLIENTS);
    // Each export stops where its socket is full, with no query running.
    await vi.waitFor(
      () => {
        expect(exporting.filter((response) => !response.writableNeedDrain)).toEqual([]);
        expect(pool.totalCount - pool.idleCount).toBe(0);
      },
      { timeout: 120_000, interval: 200 },
    );
    gc();
    gc();
    const after = memory();
    const grown = { held: after.held - before.held, rss: after.rss - before.rss };
    console.log(
      `${SLOW_CLIENTS} unread exports of ${(whole.byteLength / 1e6).toFixed(1)} MB each ` +
        `(read whole in ${Math.round(wholeMs)} ms): ` +
        `heap + buffers +${(grown.held / 1e6).toFixed(1)} MB, rss +${(grown.rss / 1e6).toFixed(1)} MB`,
    );
    expect(grown.held).toBeLessThan(MEMORY_BOUND);
  });
});

describe('export limits and ends', { timeout: 120_000 }, () => {
  const lines: RequestLog[] = [];
  const setUp = setUpWith({
    downloads: { perClient: 2, max: 3 },
    log: (line) => lines.push(line),
  });
  const exportLines = () => lines.filter((line) => line.route.endsWith('/export'));

  it('refuses a client its third export (429) and anyone one past all (503), with Retry-After, until one ends', async () => {
    const { port, proxy } = await setUp();
    // A HEAD request writes nothing and holds no place.
    expect((await proxy.app.request(exportPath, { method: 'HEAD' })).status).toBe(200);
    expect(proxy.stats().downloads).toBe(0);
    const first = await openUnread(port, exportPath, '127.0.0.2');
    const second = await openUnread(port, exportPath, '127.0.0.2');
    expect([first.head, second.head]).toEqual([
      expect.stringMatching(/^HTTP\/1\.1 200/),
      expect.stringMatching(/^HTTP\/1\.1 200/),
    ]);
    const third = await ask(port, exportPath, '127.0.0.2');
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBe('10');
    expect(JSON.parse(third.body.toString())).toEqual({
      error: {
        kind: 'client_rate_limited',
        status: 429,
        message: expect.stringMatching(/2 downloads at a time/),
        retryAfterSeconds: 10,
      },
    });
    // Its other questions are answered as ever.
    const overview = await ask(port, `/api/collections/${contract.address}`, '127.0.0.2');
    expect(overview.status).toBe(200);

    const other = await openUnread(port, exportPath, '127.0.0.3');
    expect(other.head).toMatch(/^HTTP\/1\.1 200/);
    const past = await ask(port, exportPath, '127.0.0.4');
    expect(past.status).toBe(503);
    expect(past.headers['retry-after']).toBe('10');
    expect(JSON.parse(past.body.toString())).toMatchObject({
      error: { kind: 'busy', status: 503, retryAfterSeconds: 10 },
    });
    expect(proxy.stats().downloads).toBe(3);

    // One ends (its client goes): its place is free again.
    first.socket.destroy();
    await vi.waitFor(() => expect(proxy.stats().downloads).toBe(2));
    const now = await openUnread(port, exportPath, '127.0.0.4');
    expect(now.head).toMatch(/^HTTP\/1\.1 200/);
  });

  it('stops an export whose client goes, and logs each export with its whole time and bytes', async () => {
    const { port, proxy, pool, responses } = await setUp();
    lines.splice(0);
    const stalled = () => {
      expect(responses.filter((response) => !response.writableFinished)).not.toEqual([]);
      for (const response of responses) {
        if (!response.writableFinished) expect(response.writableNeedDrain).toBe(true);
      }
      expect(pool.totalCount - pool.idleCount).toBe(0);
    };

    // A client that reads only once its export has waited on its socket.
    const reader = await openUnread(port, exportPath);
    const headersAt = performance.now();
    await vi.waitFor(stalled, { timeout: 60_000, interval: 100 });
    // Nothing is logged while the body is being sent.
    expect(exportLines()).toEqual([]);
    const waited = performance.now() - headersAt;
    const whole = await reader.readRest();
    const file = JSON.parse(whole.body.toString()) as { rows: unknown[] };
    expect(file.rows.length).toBeGreaterThan(10_000);
    await vi.waitFor(() => expect(exportLines()).toHaveLength(1));
    expect(exportLines()[0]).toMatchObject({ status: 200, bytes: whole.body.length });
    expect(exportLines()[0]).not.toHaveProperty('cut');
    expect(exportLines()[0]!.durationMs).toBeGreaterThan(waited);
    expect(proxy.stats().downloads).toBe(0);

    // A client that goes part way: its export ends, no query of it left running.
    const leaving = await openUnread(port, exportPath);
    await vi.waitFor(stalled, { timeout: 60_000, interval: 100 });
    expect(proxy.stats().downloads).toBe(1);
    leaving.socket.destroy();
    await vi.waitFor(() => {
      expect(proxy.stats().downloads).toBe(0);
      expect(pool.totalCount - pool.idleCount).toBe(0);
      expect(exportLines()).toHaveLength(2);
    });
    const cut = exportLines()[1]!;
    expect(cut).toMatchObject({ status: 200, cut: 'client_gone' });
    expect(cut.bytes).toBeGreaterThan(0);
    expect(cut.bytes).toBeLessThan(whole.body.length);
  });
});
