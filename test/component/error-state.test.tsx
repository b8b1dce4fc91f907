import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/api-error';
import { getJson } from '../../src/api/client';
import { createQueryClient } from '../../src/app/query-client';
import { ErrorState, RetryingNotice } from '../../src/components/states';
import { databaseError, errorResponse, SHUTTING_DOWN } from '../../src/server/proxy/error-response';
import { Hono } from 'hono';
import { clientRateLimit } from '../../src/server/proxy/client-rate-limit';
import { createRateLimiter } from '../../src/server/proxy/rate-limit';
import { fromSocket } from '../support/socket-bindings';
import { advanceUntil, FAKE_TIMERS } from './harness';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A query of the app's own client, with its state shown as the pages show it. */
function Answer() {
  const query = useQuery({
    queryKey: ['answer'],
    queryFn: ({ signal }) => getJson('/api/x', signal),
  });
  return (
    <>
      <RetryingNotice error={query.failureReason} failureCount={query.failureCount} />
      {query.isError && <ErrorState error={query.error} onRetry={() => void query.refetch()} />}
      {query.isSuccess && <p>Answered</p>}
    </>
  );
}

describe('the error state', () => {
  it('says which side failed, what happened and what happens next, with Retry', async () => {
    const onRetry = vi.fn();
    // As the server answers when its database is down.
    const error = await ApiError.fromResponse(errorResponse(databaseError('down')));
    render(<ErrorState error={error} onRetry={onRetry} />);
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('The dashboard’s database is down')).toBeInTheDocument();
    expect(alert).toHaveTextContent('the Token Events Service is not at fault');
    expect(alert).toHaveTextContent('It usually comes back within seconds: Retry then.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('waits out a busy server as long as it asks, then says so and offers Retry', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    let answer = () => errorResponse(SHUTTING_DOWN);
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => answer());
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Answer />
      </QueryClientProvider>,
    );
    // The server said to wait 1 s: three more tries, each announced.
    for (const attempt of [2, 3, 4]) {
      await advanceUntil(() =>
        expect(screen.getByRole('status')).toHaveTextContent(
          `The dashboard’s server is busy. Retrying automatically in 1 s (attempt ${attempt}).`,
        ),
      );
    }
    await advanceUntil(() => expect(screen.getByRole('alert')).toBeInTheDocument());
    expect(fetch).toHaveBeenCalledTimes(4);
    // Once the tries are spent the notice no longer promises another.
    expect(screen.queryByRole('status')).toBeNull();
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The dashboard’s server is busy');
    expect(alert).toHaveTextContent('The server is restarting.');
    expect(alert).toHaveTextContent('It is busy or restarting: Retry in a few seconds.');
    expect(alert).not.toHaveTextContent(/Token Events Service/);

    answer = () => Response.json({ ok: true });
    within(alert).getByRole('button', { name: 'Retry' }).click();
    await advanceUntil(() => expect(screen.getByText('Answered')).toBeInTheDocument());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('waits out this dashboard’s own limit on the visitor, saying so and when, then answers', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    // The server's per-client limit, one request at a time: the first is spent here.
    const app = new Hono();
    app.use('/api/*', clientRateLimit(createRateLimiter({ perMinute: 60, burst: 1 }), 0));
    app.get('/api/meta', (c) => c.json({ ok: true }));
    const ask = () => app.request('/api/meta', {}, fromSocket('1.2.3.4'));
    expect((await ask()).status).toBe(200);
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => ask());
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Answer />
      </QueryClientProvider>,
    );
    await advanceUntil(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'This dashboard is limiting your requests. Retrying automatically in 1 s (attempt 2).',
      ),
    );
    expect(screen.getByRole('status')).not.toHaveTextContent(/service/i);
    await advanceUntil(() => expect(screen.getByText('Answered')).toBeInTheDocument());
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('does not ask again a 503 that names no wait', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      async () => new Response('<html>Service Unavailable</html>', { status: 503 }),
    );
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Answer />
      </QueryClientProvider>,
    );
    await advanceUntil(() => expect(screen.getByRole('alert')).toBeInTheDocument());
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The dashboard’s server failedThe dashboard’s server did not answer (status 503).',
    );
  });
});
