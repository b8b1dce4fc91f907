import type { MiddlewareHandler } from 'hono';

export interface RequestLog {
  method: string;
  route: string;
  status: number;
  durationMs: number;
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

/** One structured line per request, written after the response is decided. */
export function requestLog(
  log: (line: RequestLog) => void,
  initialRoute: string,
): MiddlewareHandler<{ Variables: LogVariables }> {
  return async (c, next) => {
    const started = performance.now();
    c.set('route', initialRoute);
    await next();
    const upstreamStatus = c.get('upstreamStatus');
    const error = c.get('error');
    log({
      method: c.req.method,
      route: c.get('route'),
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      ...(upstreamStatus !== undefined && { upstreamStatus }),
      ...(error !== undefined && { error }),
    });
  };
}
