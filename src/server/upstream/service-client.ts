/** What the proxy needs of one upstream answer. */
export interface UpstreamReply {
  status: number;
  retryAfter: string | null;
  /** The body as it arrives (decompressed); ending its iterator early stops the transfer. */
  body: AsyncIterable<Uint8Array>;
}

/**
 * One GET; rejects when the service cannot be reached. Once `signal` aborts, the call
 * and any read of the body reject promptly, whatever the service does.
 */
export type UpstreamGet = (
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
) => Promise<UpstreamReply>;

/**
 * Where the proxy sends requests: the real service over HTTP, or the embedded sample
 * service in-process. Both are a base URL, a key and a GET function, so the proxy
 * code cannot tell them apart.
 */
export interface Upstream {
  source: 'sample' | 'real';
  baseUrl: string;
  apiKey: string;
  get: UpstreamGet;
  /** Describes the upstream for logs and the UI; never contains the key. */
  description: string;
}

/**
 * A fetch-style handler (the in-process sample service, test doubles) as an upstream GET.
 * Such a handler need not honour the signal, so every wait here races it.
 */
export function getViaFetch(handler: (request: Request) => Promise<Response>): UpstreamGet {
  return async (url, headers, signal) => {
    // Already given up: the handler is not asked at all, as node:http sends nothing.
    signal.throwIfAborted();
    const aborted = abortion(signal);
    const request = new Request(url, { method: 'GET', headers, signal });
    const response = await Promise.race([handler(request), aborted]);
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: chunksOf(response.body, aborted),
    };
  };
}

function abortion(signal: AbortSignal): Promise<never> {
  const aborted = new Promise<never>((_resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => {});
  return aborted;
}

async function* chunksOf(
  body: ReadableStream<Uint8Array> | null,
  aborted: Promise<never>,
): AsyncGenerator<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) return;
      yield value;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

export const MAX_UPSTREAM_BODY_BYTES = 4 * 1024 * 1024;

export type UpstreamResult =
  | { kind: 'ok'; status: number; body: Uint8Array; retryAfter: string | null }
  | { kind: 'timeout' }
  | { kind: 'unreachable' }
  | { kind: 'broken' }
  | { kind: 'too_large' };

/**
 * One upstream GET with a deadline covering headers and body. The body is read whole:
 * pages are at most 1MB, and a complete body is what lets the proxy reject malformed
 * or truncated JSON with a clear error instead of passing half a page to the browser.
 */
export async function fetchUpstream(
  upstream: Upstream,
  path: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<UpstreamResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
  const onClientGone = () => controller.abort(new Error('client gone'));
  // A signal that has already fired fires no more events.
  if (signal?.aborted) onClientGone();
  else signal?.addEventListener('abort', onClientGone, { once: true });
  const timedOut = () => controller.signal.aborted && !signal?.aborted;
  try {
    let reply: UpstreamReply;
    try {
      const url = upstream.baseUrl.replace(/\/+$/, '') + path;
      const headers = { 'x-api-key': upstream.apiKey, accept: 'application/json' };
      reply = await upstream.get(url, headers, controller.signal);
    } catch {
      return timedOut() ? { kind: 'timeout' } : { kind: 'unreachable' };
    }
    try {
      const body = await readBounded(reply.body, MAX_UPSTREAM_BODY_BYTES);
      if (body === null) return { kind: 'too_large' };
      return { kind: 'ok', status: reply.status, body, retryAfter: reply.retryAfter };
    } catch {
      return timedOut() ? { kind: 'timeout' } : { kind: 'broken' };
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onClientGone);
    // Detaches the request from its signal now. Left to the garbage collector, undici's
    // per-request abort registration leaked whenever anything kept the Request (measured
    // with an upstream that records requests: ~5 KB per failed call, never freed); an
    // HTTP request still open is closed by it.
    controller.abort(new Error('done'));
  }
}

/** The whole body, or null past `maxBytes` (the transfer is stopped there). */
async function readBounded(
  source: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of source) {
    size += chunk.byteLength;
    if (size > maxBytes) return null;
    chunks.push(chunk);
  }
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
