import { setTimeout as sleep } from 'node:timers/promises';
import type { HttpBindings } from '@hono/node-server';
import type { Context, Next } from 'hono';
import { z } from 'zod';
import { fail, ok, type Parsed } from '../../lib/result';
import { errorBody } from './records';

/**
 * Faults the sample service can inject into data requests, so tests and benchmarks can see
 * how a client copes with a slow, failing or broken upstream.
 */

export type Fault =
  /** An error response with the service's `{"message"}` body, e.g. 429 with Retry-After. */
  | { type: 'status'; status: number; message?: string; retryAfterSeconds?: number }
  /** 200 whose body is not JSON. */
  | { type: 'malformed-json' }
  /** 200 whose JSON body stops halfway. */
  | { type: 'truncated' }
  /** The connection goes away: no response at all. */
  | { type: 'drop' }
  /**
   * The page without its cursor, as the real service sends when it cannot reach its cursor
   * cache: a full page that looks like the last one.
   */
  | { type: 'no-cursor' };

export interface FaultPlan {
  /** Delay before answering each request the plan applies to. */
  latencyMs?: number;
  fault?: Fault;
  /**
   * The plan applies from the nth data request (1-based) whose path and query contain
   * `pathIncludes`, counted from when the plan was set.
   */
  nth?: number;
  /** For this many requests from the nth on. Default: 1 when nth is given, else every one. */
  times?: number;
  pathIncludes?: string;
}

/** Requests reach the app through @hono/node-server (with the socket) or in-process (without). */
export type SampleEnv = { Bindings: Partial<HttpBindings> };

const faultSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('status'),
    status: z.number().int().min(400).max(599),
    message: z.string().optional(),
    retryAfterSeconds: z.number().int().min(0).optional(),
  }),
  z.strictObject({ type: z.literal('malformed-json') }),
  z.strictObject({ type: z.literal('truncated') }),
  z.strictObject({ type: z.literal('drop') }),
  z.strictObject({ type: z.literal('no-cursor') }),
]);

const planSchema = z.strictObject({
  latencyMs: z.number().min(0).max(600_000).optional(),
  fault: faultSchema.optional(),
  nth: z.number().int().min(1).optional(),
  times: z.number().int().min(1).optional(),
  pathIncludes: z.string().optional(),
});

/** A plan from JSON (e.g. the control endpoint's body); `null` means no faults. */
export function parseFaultPlan(value: unknown): Parsed<FaultPlan | null> {
  if (value === null) return ok(null);
  const parsed = planSchema.safeParse(value);
  if (parsed.success) return ok(parsed.data);
  return fail(
    parsed.error.issues
      .map((issue) => `${issue.path.join('.') || 'plan'}: ${issue.message}`)
      .join('; '),
  );
}

export interface FaultSwitch {
  plan(): FaultPlan | null;
  /** Replaces the plan and restarts its request count. */
  set(plan: FaultPlan | null): void;
  /** Counts a data request and returns the plan when it applies to it. */
  select(pathAndQuery: string): FaultPlan | null;
}

export function createFaultSwitch(initial: FaultPlan | null = null): FaultSwitch {
  let current: FaultPlan | null = null;
  let seen = 0;
  const set = (plan: FaultPlan | null): void => {
    const parsed = parseFaultPlan(plan);
    if (!parsed.ok) throw new TypeError(`Invalid fault plan: ${parsed.error}`);
    current = parsed.value;
    seen = 0;
  };
  set(initial);
  return {
    plan: () => current,
    set,
    select(pathAndQuery) {
      if (current === null) return null;
      if (current.pathIncludes !== undefined && !pathAndQuery.includes(current.pathIncludes)) {
        return null;
      }
      seen += 1;
      const first = current.nth ?? 1;
      const times = current.times ?? (current.nth === undefined ? Infinity : 1);
      return seen >= first && seen < first + times ? current : null;
    },
  };
}

const MESSAGES: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal server error',
  502: 'Internal server error',
  503: 'Service Unavailable',
  504: 'Endpoint request timed out',
};

/** A fresh object each time: @hono/node-server writes Content-Length into the one it is given. */
export const jsonHeaders = (): Record<string, string> => ({ 'content-type': 'application/json' });

/** Injected responses say so, which also lets `SampleService.fetch` turn a drop into a rejection. */
export const FAULT_HEADER = 'x-sample-fault';

export function isDroppedConnection(response: Response): boolean {
  return response.headers.get(FAULT_HEADER) === 'drop';
}

/** Applies a selected plan around the rest of the request's handling. */
export async function applyFault(
  c: Context<SampleEnv>,
  next: Next,
  plan: FaultPlan,
): Promise<Response | void> {
  if (plan.latencyMs) await sleep(plan.latencyMs, undefined, { signal: c.req.raw.signal });
  const fault = plan.fault;
  if (fault === undefined) return next();
  const headers = { ...jsonHeaders(), [FAULT_HEADER]: fault.type };
  switch (fault.type) {
    case 'status': {
      const message = fault.message ?? MESSAGES[fault.status] ?? 'Error';
      const retryAfter = fault.retryAfterSeconds;
      return new Response(errorBody(message), {
        status: fault.status,
        headers:
          retryAfter === undefined ? headers : { ...headers, 'retry-after': String(retryAfter) },
      });
    }
    case 'malformed-json':
      return new Response('{"result":[{"contract_address":"0x0",}],"cursor":undefined}', {
        status: 200,
        headers,
      });
    case 'truncated': {
      await next();
      const body = await c.res.text();
      c.res = new Response(body.slice(0, Math.floor(body.length / 2)), { status: 200, headers });
      return;
    }
    case 'no-cursor': {
      await next();
      if (c.res.status !== 200) return;
      const { cursor: _left, ...page } = (await c.res.json()) as Record<string, unknown>;
      c.res = new Response(JSON.stringify(page), { status: 200, headers });
      return;
    }
    case 'drop': {
      // On a real server, close the socket so the client sees a reset, not a response.
      const socket = c.env?.incoming?.socket;
      if (socket) {
        socket.destroy();
        return new Response(null, { status: 500, headers });
      }
      // In-process there is no socket: the headers arrive, then reading the body fails.
      return new Response(
        new ReadableStream({
          start: (controller) => controller.error(new TypeError('terminated')),
        }),
        { status: 200, headers },
      );
    }
  }
}
