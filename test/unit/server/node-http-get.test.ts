import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeHttpGet } from '../../../src/server/upstream/node-http-get';
import { fetchUpstream, type Upstream } from '../../../src/server/upstream/service-client';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => sockets.add(socket));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sockets };
}

const upstreamAt = (base: string): Upstream => ({
  source: 'real',
  baseUrl: base,
  apiKey: 'key-1',
  get: nodeHttpGet(base),
  description: 'test upstream',
});

const text = (body: Uint8Array) => new TextDecoder().decode(body);

describe('upstream GETs over node:http', () => {
  it('sends the key, keeps the connection for the next page, and reads the whole body', async () => {
    const seen: Array<string | undefined> = [];
    const { base, sockets } = await serve((req, res) => {
      seen.push(req.headers['x-api-key'] as string | undefined);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ result: [req.url], cursor: null }));
    });
    const upstream = upstreamAt(base);
    for (const path of ['/v1/contracts', '/v1/contracts?cursor=a']) {
      const result = await fetchUpstream(upstream, path, 5_000);
      expect(result.kind).toBe('ok');
      if (result.kind === 'ok') expect(JSON.parse(text(result.body)).result).toEqual([path]);
    }
    expect(seen).toEqual(['key-1', 'key-1']);
    expect(sockets.size).toBe(1);
  });

  it('decompresses a gzip answer and keeps Retry-After', async () => {
    const { base } = await serve((_req, res) => {
      res.writeHead(429, { 'content-encoding': 'gzip', 'retry-after': '9' });
      res.end(gzipSync(JSON.stringify({ message: 'Too Many Requests' })));
    });
    const result = await fetchUpstream(upstreamAt(base), '/v1/contracts', 5_000);
    expect(result).toMatchObject({ kind: 'ok', status: 429, retryAfter: '9' });
    if (result.kind === 'ok') expect(text(result.body)).toBe('{"message":"Too Many Requests"}');
  });

  it('asks again on a fresh connection when a kept connection was closed under it', async () => {
    let requests = 0;
    const { base } = await serve((req, res) => {
      requests += 1;
      // The second request arrives on the kept connection, which the server then resets,
      // as a server does when its idle timeout strikes just as the request is sent.
      if (requests === 2) return req.socket.resetAndDestroy();
      res.end(JSON.stringify({ result: [], cursor: null }));
    });
    const upstream = upstreamAt(base);
    expect((await fetchUpstream(upstream, '/v1/contracts', 5_000)).kind).toBe('ok');
    expect((await fetchUpstream(upstream, '/v1/contracts', 5_000)).kind).toBe('ok');
    expect(requests).toBe(3);
  });

  it('reports a body cut short as broken, and a silent service as a timeout', async () => {
    const { base } = await serve((req, res) => {
      if (req.url?.includes('hang')) return;
      if (req.url?.includes('stall')) {
        res.writeHead(200, { 'content-length': '1000' });
        return res.write('{"result":[');
      }
      res.writeHead(200, { 'content-length': '1000' });
      // Cut once the start of the body is out.
      res.write('{"result":[', () => req.socket.destroy());
    });
    const upstream = upstreamAt(base);
    expect((await fetchUpstream(upstream, '/v1/contracts', 5_000)).kind).toBe('broken');
    expect((await fetchUpstream(upstream, '/v1/contracts?hang=1', 200)).kind).toBe('timeout');
    expect((await fetchUpstream(upstream, '/v1/contracts?stall=1', 200)).kind).toBe('timeout');
  });

  it('reports a service that is not listening as unreachable', async () => {
    const { base } = await serve(() => {});
    servers[0]!.close();
    await once(servers[0]!, 'close');
    expect((await fetchUpstream(upstreamAt(base), '/v1/contracts', 5_000)).kind).toBe(
      'unreachable',
    );
  });
});
