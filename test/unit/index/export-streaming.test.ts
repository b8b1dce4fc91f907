import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProxyOptions } from '../../../src/server/proxy/app';
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
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function setUpWith(options: Partial<ProxyOptions>) {
  const setUp = useIndexedSample(dataset, options);
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
 * A client that asks for `path` and reads nothing past the answer's first bytes (its
 * status line and headers), from `localAddress` (a loopback address: one client each).
 */
function openUnread(port: number, path: string, localAddress = '127.0.0.1') {
  const socket = connect({ host: '127.0.0.1', port, localAddress });
  sockets.push(socket);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  return new Promise<{ socket: Socket; head: string }>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      resolve({ socket, head: chunk.toString('latin1').split('\r\n\r\n')[0]! });
    });
  });
}

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
