import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type ClientErrorKind } from '../../../src/api/api-error';
import { retryDelayMs, shouldRetry } from '../../../src/api/retry-policy';
import { createQueryClient } from '../../../src/app/query-client';

afterEach(() => vi.useRealTimers());

/**
 * Runs one query of the app's own query client against a fetcher that always fails with
 * `kind`, on fake timers, and counts the attempts and the waits between them.
 */
async function attempts(kind: ClientErrorKind, retryAfterSeconds?: number) {
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
        return Promise.reject(new ApiError(kind, undefined, 0, retryAfterSeconds));
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

  it('waits out a rate limit six times, backing off from 1 s', async () => {
    // React Query asks for the first delay with a failure count of 0, then 1, 2, …
    expect(await attempts('rate_limited')).toEqual({
      retries: 6,
      waits: [1000, 1000, 2000, 4000, 8000, 16_000],
    });
  });

  it('waits as long as Retry-After says, at most 30 s', async () => {
    expect((await attempts('rate_limited', 3)).waits).toEqual([3000, 3000, 3000, 3000, 3000, 3000]);
    expect(retryDelayMs(1, new ApiError('rate_limited', undefined, 429, 120))).toBe(30_000);
  });

  it('waits out our own database three times, as long as its Retry-After says', async () => {
    const error = new ApiError('database', 'down', 503, 5);
    expect([1, 2, 3].map((count) => shouldRetry(count - 1, error))).toEqual([true, true, true]);
    expect(shouldRetry(3, error)).toBe(false);
    expect(retryDelayMs(1, error)).toBe(5_000);
  });

  it('shows anything else at once', async () => {
    for (const kind of [
      'bad_key',
      'bad_request',
      'not_found',
      'method_not_allowed',
      'upstream',
      'invalid_response',
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
    const response = new Response('<html>Too many requests</html>', {
      status: 429,
      headers: { 'retry-after': '9' },
    });
    expect(await ApiError.fromResponse(response)).toMatchObject({
      kind: 'rate_limited',
      status: 429,
      retryAfterSeconds: 9,
    });
    const gateway = await ApiError.fromResponse(new Response('', { status: 504 }));
    expect(gateway).toMatchObject({ kind: 'timeout', retryAfterSeconds: undefined });
  });
});
