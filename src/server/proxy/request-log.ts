import type { MiddlewareHandler } from 'hono';

export interface RequestLog {
  method: string;
  route: string;
  status: number;
  /** From the request's arrival to its answer's last byte handed to the socket. */
  durationMs: number;
  /** The answer's body as sent (compressed when it was). */
  bytes: number;
  /** The body did not end: its client went away, or the server failed part way. */
  cut?: 'client_gone' | 'failed';
  upstreamStatus?: number | string;
  /** A thrown error (a bug of ours), with its stack: never anything of the request. */
  error?: string;
}

/** What handlers tell the log about a request; nothing here may hold the key. */
export type LogVariables = {
  route: string;
  upstreamStatus?: number | string;
  error?: string;
};

/**
 * One structured line per request, written once its answer's body has been sent, or cut:
 * a streamed answer (an export) is timed and counted to its end, not to its headers.
 */
export function requestLog(
  log: (line: RequestLog) => void,
  initialRoute: string,
): MiddlewareHandler<{ Variables: LogVariables }> {
  return async (c, next) => {
    const started = performance.now();
    c.set('route', initialRoute);
    await next();
    let written = false;
    const write = (bytes: number, cut?: RequestLog['cut']) => {
      if (written) return;
      written = true;
      const upstreamStatus = c.get('upstreamStatus');
      const error = c.get('error');
      log({
        method: c.req.method,
        route: c.get('route'),
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        bytes,
        ...(cut && { cut }),
        ...(upstreamStatus !== undefined && { upstreamStatus }),
        ...(error !== undefined && { error }),
      });
    };
    // A HEAD answer's body is dropped after this, unread.
    const body = c.req.method === 'HEAD' ? null : c.res.body;
    if (!body) {
      write(0);
      return;
    }
    c.res = new Response(countedBody(body, write, c.req.raw.signal), c.res);
  };
}

/**
 * `body`, read only as fast as it is sent, telling `end` its bytes once it ends, fails, is
 * cancelled or its client goes (the request's signal: the server may stop reading a body
 * whose client left before its headers, without cancelling it).
 */
function countedBody(
  body: ReadableStream<Uint8Array>,
  end: (bytes: number, cut?: RequestLog['cut']) => void,
  gone: AbortSignal,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let bytes = 0;
  gone.addEventListener('abort', () => end(bytes, 'client_gone'), { once: true });
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            end(bytes);
            controller.close();
            return;
          }
          bytes += value.byteLength;
          controller.enqueue(value);
        } catch (error) {
          end(bytes, 'failed');
          controller.error(error);
        }
      },
      cancel(reason) {
        end(bytes, 'client_gone');
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
