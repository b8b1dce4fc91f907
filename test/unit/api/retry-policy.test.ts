import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, failedSide, type ClientErrorKind } from '../../../src/api/api-error';
import { retryDelayMs, shouldRetry } from '../../../src/api/retry-policy';
import { createQueryClient } from '../../../src/app/query-client';

afterEach(() => vi.useRealTimers());

/**
 * Runs one query of the app's own query client against a fetcher that always fails with
 * `kind`, on fake timers, and counts the attempts and the waits between them.
 */
async function attempts(kind: ClientErrorKind, retryAfterSeconds?: number, status = 0) {
  vi.useFakeTimers();
  const client = createQueryClient();
  let calls = 0;
  const at: number[] = [];
  const done = client
    .fetchQuery({
      queryKey: ['retry-test', kind],
      queryFn: () => {
        calls += 1;
        at.push(Date.now());
        return Promise.reject(new ApiError(kind, undefined, status, retryAfterSeconds));
      },
    })
    .catch((error: unknown) => error);
  await vi.runAllTimersAsync();
  expect(await done).toBeInstanceOf(ApiError);
  client.clear();
  const waits = at.slice(1).map((time, index) => time - at[index]!);
  return { retries: calls - 1, waits };
}

describe('the retry policy, as the query client applies it', () => {
  it('retries a network fault, a gateway timeout and an unreachable service once, after 1 s', async () => {
    for (const kind of ['network', 'timeout', 'unreachable'] as const) {
      expect(await attempts(kind)).toEqual({ retries: 1, waits: [1000] });
    }
  });

  it('waits out a rate limit, the service’s or ours, six times, backing off from 1 s', async () => {
    // React Query asks for the first delay with a failure count of 0, then 1, 2, …
    for (const kind of ['rate_limited', 'client_rate_limited'] as const) {
      expect(await attempts(kind)).toEqual({
        retries: 6,
        waits: [1000, 2000, 4000, 8000, 16_000, 30_000],
      });
    }
  });

  it('waits as long as Retry-After says, at most 30 s', async () => {
    expect((await attempts('rate_limited', 3)).waits).toEqual([3000, 3000, 3000, 3000, 3000, 3000]);
    expect((await attempts('client_rate_limited', 2)).waits).toEqual(Array(6).fill(2000));
    expect(retryDelayMs(1, new ApiError('rate_limited', undefined, 429, 120))).toBe(30_000);
  });

  it('waits out our own database three times, as long as its Retry-After says', async () => {
    const error = new ApiError('database', 'down', 503, 5);
    expect([1, 2, 3].map((count) => shouldRetry(count - 1, error))).toEqual([true, true, true]);
    expect(shouldRetry(3, error)).toBe(false);
    expect(retryDelayMs(1, error)).toBe(5_000);
    expect(await attempts('database', 5, 503)).toEqual({ retries: 3, waits: [5000, 5000, 5000] });
  });

  it('asks a busy 503 again after the time it asks, whatever its kind, a few times', async () => {
    // The server's queue for the service is full, it restarts, or a proxy in front says so.
    for (const kind of ['busy', 'internal', 'timeout'] as const) {
      expect(await attempts(kind, 2, 503)).toEqual({ retries: 3, waits: [2000, 2000, 2000] });
    }
    // A long wait is capped.
    expect((await attempts('busy', 600, 503)).waits).toEqual([30_000, 30_000, 30_000]);
  });

  it('does not hammer a 503 that does not say how long to wait', async () => {
    for (const kind of ['busy', 'internal', 'database', 'timeout'] as const) {
      expect(await attempts(kind, undefined, 503)).toEqual({ retries: 0, waits: [] });
    }
  });

  it('shows anything else at once', async () => {
    for (const kind of [
      'bad_key',
      'bad_request',
      'not_found',
      'method_not_allowed',
      'upstream',
      'invalid_response',
      'unreadable_answer',
    ] as const) {
      expect(await attempts(kind)).toEqual({ retries: 0, waits: [] });
    }
  });
});

describe('ApiError.fromResponse', () => {
  it('takes the kind, the message and the wait from our error body', async () => {
    const response = Response.json(
      {
        error: {
          kind: 'rate_limited',
          message: 'The Token Events Service is throttling requests.',
          status: 429,
          retryAfterSeconds: 7,
        },
      },
      { status: 429 },
    );
    const error = await ApiError.fromResponse(response);
    expect(error).toMatchObject({
      kind: 'rate_limited',
      message: 'The Token Events Service is throttling requests.',
      status: 429,
      retryAfterSeconds: 7,
    });
  });

  it('knows an answer that is not ours by its status and its Retry-After header', async () => {
    // Something in front of the server limits this browser: not the service.
    const response = new Response('<html>Too many requests</html>', {
      status: 429,
      headers: { 'retry-after': '9' },
    });
    expect(await ApiError.fromResponse(response)).toMatchObject({
      kind: 'client_rate_limited',
      status: 429,
      retryAfterSeconds: 9,
    });
  });

  it('blames the dashboard’s server, never the service, for a failure of something in front of it', async () => {
    for (const status of [500, 502, 503, 504]) {
      const error = await ApiError.fromResponse(
        new Response('<html>Bad gateway</html>', { status }),
      );
      expect(error).toMatchObject({
        kind: 'internal',
        status,
        message: `The dashboard’s server did not answer (status ${status}).`,
        retryAfterSeconds: undefined,
      });
      expect(failedSide(error)).toBe('server');
    }
    const restarting = await ApiError.fromResponse(
      new Response('', { status: 503, headers: { 'retry-after': '4' } }),
    );
    expect(restarting).toMatchObject({ status: 503, retryAfterSeconds: 4 });
    expect(shouldRetry(0, restarting)).toBe(true);
  });
});
