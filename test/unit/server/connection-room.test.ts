import { once } from 'node:events';
import { createServer, request, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { limitConnections } from '../../../src/server/http/connection-limits';

const held: ServerResponse[] = [];
const sockets: Socket[] = [];
let server: Server | undefined;

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const response of held.splice(0)) response.end();
  if (!server) return;
  server.closeAllConnections();
  await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

/**
 * A server that holds every response (until the test ends them), at most 4 connections,
 * `inFlightPerAddress` requests in flight per address.
 */
async function listening(inFlightPerAddress = 10) {
  server = createServer((_request, response) => held.push(response));
  limitConnections(
    server,
    {
      maxConnections: 4,
      maxConnectionsPerAddress: 10,
      keepAliveTimeoutMs: 5_000,
      headersTimeoutMs: 30_000,
    },
    inFlightPerAddress,
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** A connection from `from` that sends nothing. */
async function silent(port: number, from: string) {
  const socket = connect({ host: '127.0.0.1', port, localAddress: from });
  sockets.push(socket);
  socket.on('error', () => {});
  const closed = once(socket, 'close').then(() => true);
  await once(socket, 'connect');
  return { isClosed: () => Promise.race([closed, Promise.resolve(false)]) };
}

/** A request from `from` that the server holds: its status once answered, or the error. */
async function heldRequest(port: number, from: string) {
  const answered = new Promise<number | string>((resolve) => {
    request({ host: '127.0.0.1', port, path: '/', localAddress: from, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
      .end();
  });
  return answered;
}

describe('making room at the total cap', { timeout: 20_000 }, () => {
  it('closes the oldest connection with no request being answered, never one being answered', async () => {
    const port = await listening();
    const busy = [heldRequest(port, '127.0.0.3'), heldRequest(port, '127.0.0.3')];
    await vi.waitFor(() => expect(held).toHaveLength(2));
    const first = await silent(port, '127.0.0.2');
    const second = await silent(port, '127.0.0.2');

    // Full: each new client takes the place of the oldest silent connection.
    const third = heldRequest(port, '127.0.0.4');
    await vi.waitFor(() => expect(held).toHaveLength(3));
    expect(await first.isClosed()).toBe(true);
    expect(await second.isClosed()).toBe(false);
    const fourth = heldRequest(port, '127.0.0.5');
    await vi.waitFor(() => expect(held).toHaveLength(4));
    expect(await second.isClosed()).toBe(true);

    // Every place is answering a request: a new connection is closed as it arrives.
    expect(await heldRequest(port, '127.0.0.6')).toMatch(/ECONNRESET|socket hang up/);
    for (const response of held) response.end('ok');
    expect(await Promise.all([...busy, third, fourth])).toEqual([200, 200, 200, 200]);
  });

  it('takes room from the address holding the most connections first', async () => {
    const port = await listening();
    const light = await silent(port, '127.0.0.2');
    const heavy = [await silent(port, '127.0.0.3'), await silent(port, '127.0.0.3')];
    await silent(port, '127.0.0.3');
    const newcomer = heldRequest(port, '127.0.0.4');
    await vi.waitFor(() => expect(held).toHaveLength(1));
    // The oldest of 127.0.0.3 gave way, though 127.0.0.2's connection is older.
    await vi.waitFor(async () => expect(await heavy[0]!.isClosed()).toBe(true));
    expect(await light.isClosed()).toBe(false);
    expect(await heavy[1]!.isClosed()).toBe(false);
    held[0]!.end('ok');
    expect(await newcomer).toBe(200);
  });

  it('closes the newest connection of an address holding more than it may have in flight', async () => {
    // 127.0.0.3 may have 2 requests in flight: its third and fourth connections only wait.
    const port = await listening(2);
    const flood = [1, 2, 3, 4].map(() => heldRequest(port, '127.0.0.3'));
    await vi.waitFor(() => expect(held).toHaveLength(4));
    const probe = heldRequest(port, '127.0.0.4');
    // The newest of 127.0.0.3 gave way, not an older one.
    expect(await flood[3]).toMatch(/ECONNRESET|socket hang up/);
    await vi.waitFor(() => expect(held).toHaveLength(5));
    for (const response of held) response.end('ok');
    expect(await Promise.all([probe, ...flood.slice(0, 3)])).toEqual([200, 200, 200, 200]);
  });

  it('never closes a connection being answered while its address stays within its bound', async () => {
    const port = await listening(2);
    const busy = [1, 2].flatMap(() => [
      heldRequest(port, '127.0.0.3'),
      heldRequest(port, '127.0.0.5'),
    ]);
    await vi.waitFor(() => expect(held).toHaveLength(4));
    expect(await heldRequest(port, '127.0.0.4')).toMatch(/ECONNRESET|socket hang up/);
    for (const response of held) response.end('ok');
    expect(await Promise.all(busy)).toEqual([200, 200, 200, 200]);
  });
});
