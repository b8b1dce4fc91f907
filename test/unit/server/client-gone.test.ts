import { once } from 'node:events';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProxy } from '../../../src/server/proxy/app';
import { fakeUpstream } from '../proxy/fake-upstream';

const A = '0x' + '0'.repeat(60) + 'abcd';
let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  if (server?.listening) await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** The proxy on a real socket, over an upstream that never answers a page on its own. */
async function proxyOnSocket() {
  const upstreamSignals: AbortSignal[] = [];
  const { upstream } = fakeUpstream(
    (upstreamRequest) =>
      new Promise<Response>((resolve) => {
        upstreamSignals.push(upstreamRequest.signal);
        // Answers only once asked to stop, as a real connection would end.
        upstreamRequest.signal.addEventListener('abort', () => resolve(new Response('')));
      }),
  );
  const { app } = createProxy({ upstream, rateLimit: { perMinute: 0, burst: 1 } });
  server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }) as Server;
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, upstreamSignals };
}

describe('a client that goes away', () => {
  it('stops the upstream call it started, when nobody else waits for it', async () => {
    const { port, upstreamSignals } = await proxyOnSocket();
    const client = request({ host: '127.0.0.1', port, path: `/api/v1/events/${A}` });
    client.on('error', () => {});
    client.end();
    await vi.waitFor(() => expect(upstreamSignals).toHaveLength(1));
    expect(upstreamSignals[0]!.aborted).toBe(false);
    client.destroy();
    await vi.waitFor(() => expect(upstreamSignals[0]!.aborted).toBe(true));
  });
});
