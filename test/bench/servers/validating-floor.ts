import { createServer } from 'node:http';
import { nodeHttpGet } from '../../../src/server/upstream/node-http-get';

/**
 * A reference for bench 1, not a proxy anyone should run: the least a proxy that checks
 * its pages can do. Bare `node:http`, the production server's own upstream transport,
 * the key added, the body read whole and `JSON.parse`d, then sent. No routing, no
 * validation of the path, no cache, gate, timeout, cancellation, log or security
 * headers. What it costs above Vite's streaming proxy is the price of reading the page.
 */
const { UPSTREAM_URL, UPSTREAM_KEY } = process.env;
if (!UPSTREAM_URL || !UPSTREAM_KEY) throw new Error('UPSTREAM_URL and UPSTREAM_KEY are required.');
const get = nodeHttpGet(UPSTREAM_URL);

const server = createServer((request, response) => {
  const fail = () => {
    response.writeHead(502).end();
  };
  get(
    UPSTREAM_URL + (request.url ?? '').replace(/^\/api/, ''),
    { 'x-api-key': UPSTREAM_KEY },
    new AbortController().signal,
  )
    .then(async (reply) => {
      const chunks: Uint8Array[] = [];
      for await (const chunk of reply.body) chunks.push(chunk);
      const body = Buffer.concat(chunks);
      JSON.parse(new TextDecoder().decode(body));
      response.writeHead(reply.status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': body.byteLength,
      });
      response.end(body);
    })
    .catch(fail);
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') {
    process.send?.({ type: 'listening', port: address.port });
  }
});
