import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/server/config';
import { listen } from '../../../src/server/main';
import { openServices, type Services } from '../../../src/server/open-services';
import { usePostgresDatabases } from '../../support/postgres-databases';

let clientDir: string;
const sockets: Socket[] = [];
let running: ReturnType<typeof listen> | undefined;
let services: Services | undefined;
// One database for the file: these tests never read from it, they only need it opened.
const databases = usePostgresDatabases();
let databaseUrl: string | undefined;

beforeAll(() => {
  clientDir = mkdtempSync(join(tmpdir(), 'client-'));
  writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>dashboard</title>');
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  if (running) await running.stop(0);
  running = undefined;
  await services?.close();
  services = undefined;
});
afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

async function start(
  env: Record<string, string>,
  adjust = (_: ReturnType<typeof loadConfig>) => {},
) {
  databaseUrl ??= (await databases.database()).url;
  const config = loadConfig({
    // Never asked: these tests only open connections and read /healthz.
    TOKEN_EVENTS_API_URL: 'http://127.0.0.1:9',
    TOKEN_EVENTS_API_KEY: 'k',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: databaseUrl,
    INDEX_BACKGROUND_SHARE: '0',
    INDEX_VERIFY_SHARE: '0',
    ...env,
  });
  adjust(config);
  services = await openServices(config);
  running = listen(config, clientDir, services);
  await once(running.server, 'listening');
  const address = running.server.address();
  if (!address || typeof address !== 'object') throw new Error('not listening');
  return address.port;
}

/** Opens a connection from `from` (any 127.x address is this machine) and keeps it open. */
async function idleConnection(port: number, from: string) {
  const socket = connect({ host: '127.0.0.1', port, localAddress: from });
  sockets.push(socket);
  socket.on('error', () => {});
  const closed = once(socket, 'close').then(() => true);
  await once(socket, 'connect');
  return { socket, closed };
}

function healthFrom(port: number, from: string) {
  return new Promise<number>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/healthz', localAddress: from, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

const openConnections = () =>
  new Promise<number>((resolve) => running!.server.getConnections((_e, count) => resolve(count)));

describe('connection limits', { timeout: 20_000 }, () => {
  it('keeps 300 idle connections from one address from shutting out another address', async () => {
    const port = await start({ MAX_CONNECTIONS_PER_ADDRESS: '20', MAX_CONNECTIONS: '100' });
    const idle: Array<{ socket: Socket; closed: Promise<boolean> }> = [];
    for (let i = 0; i < 300; i += 1) idle.push(await idleConnection(port, '127.0.0.1'));
    // The server closes every connection of that address past its 20th.
    await vi.waitFor(
      async () => {
        const closed = await Promise.all(
          idle.map(({ closed }) => Promise.race([closed, Promise.resolve(false)])),
        );
        expect(closed.filter(Boolean)).toHaveLength(280);
      },
      { timeout: 5_000 },
    );
    expect(await openConnections()).toBe(20);
    expect(await healthFrom(port, '127.0.0.2')).toBe(200);
  });

  it('closes a connection that sends nothing once its headers timeout has passed', async () => {
    const port = await start({}, (config) => {
      config.connections.headersTimeoutMs = 300;
    });
    const silent = await idleConnection(port, '127.0.0.1');
    const halfSent = await idleConnection(port, '127.0.0.1');
    halfSent.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await vi.waitFor(
      async () => {
        expect(await Promise.race([silent.closed, Promise.resolve(false)])).toBe(true);
        expect(await Promise.race([halfSent.closed, Promise.resolve(false)])).toBe(true);
      },
      { timeout: 5_000, interval: 50 },
    );
  });

  it('closes a keep-alive connection once it has been idle for the keep-alive timeout', async () => {
    const port = await start({ KEEP_ALIVE_TIMEOUT_MS: '200' });
    const connection = await idleConnection(port, '127.0.0.1');
    connection.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await once(connection.socket, 'data');
    expect(await Promise.race([connection.closed, Promise.resolve(false)])).toBe(false);
    await vi.waitFor(
      async () =>
        expect(await Promise.race([connection.closed, Promise.resolve(false)])).toBe(true),
      { timeout: 5_000, interval: 50 },
    );
  });

  it('behind trusted proxies, caps the total only: every connection comes from a proxy', async () => {
    const port = await start({
      MAX_CONNECTIONS_PER_ADDRESS: '5',
      MAX_CONNECTIONS: '100',
      TRUST_PROXY: '1',
    });
    for (let i = 0; i < 10; i += 1) await idleConnection(port, '127.0.0.1');
    expect(await healthFrom(port, '127.0.0.1')).toBe(200);
    expect(await openConnections()).toBeGreaterThanOrEqual(10);
  });

  it('admits a new client while slow connections from many addresses fill the total', async () => {
    const port = await start(
      { MAX_CONNECTIONS: '60', MAX_CONNECTIONS_PER_ADDRESS: '10' },
      (config) => {
        // Long enough that no slow connection times out during the test.
        config.connections.headersTimeoutMs = 30_000;
      },
    );
    const slowAddresses = [
      '127.0.0.2',
      '127.0.0.3',
      '127.0.0.4',
      '127.0.0.5',
      '127.0.0.6',
      '127.0.0.7',
    ];
    // Each slow connection sends the start of a request's headers and nothing more; one
    // that is closed is opened again, as an attacker would (up to 200 times in all).
    let reopens = 200;
    const slow = (from: string): Promise<void> =>
      idleConnection(port, from).then(({ socket, closed }) => {
        socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
        void closed.then(() => {
          if (running && reopens-- > 0) void slow(from).catch(() => {});
        });
      });
    for (const from of slowAddresses) for (let i = 0; i < 10; i += 1) await slow(from);
    await vi.waitFor(async () => expect(await openConnections()).toBe(60), { timeout: 5_000 });

    const statuses: Array<number | string> = [];
    for (let i = 0; i < 20; i += 1) {
      statuses.push(await healthFrom(port, '127.0.0.8').catch((error: Error) => error.message));
    }
    expect(statuses).toEqual(Array.from({ length: 20 }, () => 200));
    // The slow connections still hold the rest: the cap is kept.
    expect(await openConnections()).toBeLessThanOrEqual(60);
  });
});
