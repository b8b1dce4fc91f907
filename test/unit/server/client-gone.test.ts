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
  const proxy = createProxy({
    upstream,
    rateLimit: { perMinute: 0, burst: 1 },
    gate: { concurrency: 100, queueTimeoutMs: 10_000, ratePerSecond: 0 },
  });
  server = serve({ fetch: proxy.app.fetch, hostname: '127.0.0.1', port: 0 }) as Server;
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, upstreamSignals, proxy };
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

describe('a server that stops', () => {
  it('answers every request still waiting for the upstream with 503 at once', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const { port, upstreamSignals, proxy } = await proxyOnSocket();
      const answers = Array.from({ length: 30 }, (_, i) =>
        answerOf(port, `/api/v1/events/${A}?cursor=c${i}`),
      );
      await vi.waitFor(() => expect(upstreamSignals).toHaveLength(30));
      proxy.stop();
      for (const answer of await Promise.all(answers)) {
        expect(answer.status).toBe(503);
        expect(JSON.parse(answer.body)).toMatchObject({ error: { message: /restarting/ } });
      }
      expect(upstreamSignals.every((signal) => signal.aborted)).toBe(true);
      // One that arrives after the stop is not sent upstream.
      expect((await answerOf(port, `/api/v1/events/${A}?cursor=late`)).status).toBe(503);
      expect(upstreamSignals).toHaveLength(30);
      expect(warnings.map(String)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
