import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { pipeline } from 'node:stream';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import type { UpstreamGet } from './service-client';

/**
 * Upstream GETs over Node's own HTTP client on keep-alive connections. Global `fetch`
 * does the same work through WHATWG layers (Request, Headers, web streams) that cost the
 * proxy's cache-miss path measurably more CPU per page (see the README's Performance).
 * Compressed answers are asked for, as fetch would, and decompressed here.
 */
export function nodeHttpGet(baseUrl: string): UpstreamGet {
  const secure = new URL(baseUrl).protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;

  const once = (url: string, headers: Record<string, string>, signal: AbortSignal) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const request = send(url, {
        agent,
        headers: { ...headers, 'accept-encoding': 'gzip, br' },
      });
      // Until the body has arrived, giving up closes the connection; after, it is pooled.
      const onAbort = () =>
        request.destroy(signal.reason instanceof Error ? signal.reason : undefined);
      signal.addEventListener('abort', onAbort, { once: true });
      const settle = () => signal.removeEventListener('abort', onAbort);
      request.once('response', (response) => {
        response.once('end', settle);
        response.once('close', settle);
        // Errors reach whoever reads the body; none may go unheard before it starts.
        response.on('error', () => {});
        resolve(response);
      });
      request.on('error', (error) => {
        settle();
        reject(Object.assign(error, { reused: request.reusedSocket }));
      });
      request.end();
    });

  return async (url, headers, signal) => {
    let response;
    try {
      response = await once(url, headers, signal);
    } catch (error) {
      // A pooled connection the server closed as we reused it: the request never
      // reached the service, so it is asked again once, on a fresh connection.
      const { reused, code } = error as { reused?: boolean; code?: string };
      if (!reused || code !== 'ECONNRESET' || signal.aborted) throw error;
      response = await once(url, headers, signal);
    }
    const retryAfter = response.headers['retry-after'];
    return {
      status: response.statusCode ?? 0,
      retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
      body: decoded(response),
    };
  };
}

function decoded(response: IncomingMessage): AsyncIterable<Uint8Array> {
  const encoding = response.headers['content-encoding']?.trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'br'
        ? createBrotliDecompress()
        : undefined;
  // An error on either side (a reset, a corrupt stream) ends the iteration with it.
  return decoder ? pipeline(response, decoder, () => {}) : response;
}
