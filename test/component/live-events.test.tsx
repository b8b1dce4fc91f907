import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../src/api/query-keys';
import { createQueryClient } from '../../src/app/query-client';
import type { Page } from '../../src/lib/page';
import type { TokenEvent } from '../../src/lib/token-event';
import { LiveNotice } from '../../src/pages/contract-events/live-notice';
import { useLiveEvents } from '../../src/pages/contract-events/use-live-events';

const ADDRESS = `0x${'a'.repeat(64)}`;

const event = (key: string, timestamp: number): TokenEvent => ({
  key,
  eventId: key,
  kind: 'transfer',
  label: 'transfer',
  contractAddress: ADDRESS,
  from: `0x${'1'.repeat(64)}`,
  to: `0x${'2'.repeat(64)}`,
  tokenId: '1',
  timestamp,
  transactionHash: `0x${'3'.repeat(64)}`,
});

/** The hook over `loaded` events, with `head` as the newest page the poll has seen. */
function liveEvents(loaded: TokenEvent[], head: Page<TokenEvent>) {
  const queryClient = createQueryClient();
  queryClient.setQueryData(queryKeys.contractHead(ADDRESS, 100), head);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  return renderHook(() => useLiveEvents(ADDRESS, loaded, 100), { wrapper });
}

const keys = (events: readonly TokenEvent[]) => events.map((item) => item.key);

describe('live events', () => {
  const newest = event('loaded-newest', 100);
  const loaded = [newest, event('loaded-older', 90)];

  it('offers only events newer than the loaded ones: an older one the list lacks is not new', () => {
    const { result } = liveEvents(loaded, {
      items: [event('new', 110), newest, event('older-not-loaded', 95)],
      skipped: 0,
      cursor: 'next',
    });
    expect(keys(result.current.fresh)).toEqual(['new']);
    expect(result.current.gap).toBe(false);
  });

  it('says there may be a gap when every event of a page that has more is new', () => {
    const head = { items: [event('new-2', 120), event('new-1', 110)], skipped: 0, cursor: 'next' };
    const { result } = liveEvents(loaded, head);
    expect(keys(result.current.fresh)).toEqual(['new-2', 'new-1']);
    expect(result.current.gap).toBe(true);
    // The newest page is the whole list: nothing can be missing.
    expect(liveEvents(loaded, { ...head, cursor: null }).result.current.gap).toBe(false);
  });

  it('adds the offered events on request, and offers them no more', () => {
    const { result } = liveEvents(loaded, {
      items: [event('new', 110), newest],
      skipped: 0,
      cursor: 'next',
    });
    act(() => result.current.addFresh());
    expect(keys(result.current.added)).toEqual(['new']);
    expect(result.current.fresh).toEqual([]);
  });
});

describe('the "new events" notice', () => {
  it('says "N+" and why when there may be more than it can add', () => {
    const onAdd = vi.fn();
    const { rerender } = render(<LiveNotice count={2} gap onAdd={onAdd} />);
    screen.getByRole('button', { name: '2+ new events' }).click();
    expect(onAdd).toHaveBeenCalledOnce();
    expect(
      screen.getByText('More arrived than one page holds; reload to see all of them.'),
    ).toBeInTheDocument();
    rerender(<LiveNotice count={1} gap={false} onAdd={onAdd} />);
    expect(screen.getByRole('button', { name: '1 new event' })).toBeInTheDocument();
    expect(screen.queryByText(/More arrived than one page holds/)).toBeNull();
  });
});
