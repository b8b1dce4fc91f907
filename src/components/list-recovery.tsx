import type { ReactNode } from 'react';
import type { InfiniteList } from '../api/use-infinite-list';
import { formatCount } from '../lib/format';
import button from './button.module.css';
import notice from './notice.module.css';

interface RecoveryProps {
  noun: string;
  list: InfiniteList<unknown>;
}

/**
 * The list's next page cannot be had: the service has forgotten the place it had reached
 * (its cursors die after a while, and asking again with a dead one never works). Offers
 * to read the list again from its head, skipping what is loaded.
 */
export function DeadCursorNotice({ noun, list }: RecoveryProps) {
  return (
    <div className={`${notice.wait} ${notice.compact}`} role="alert">
      <strong>The service lost its place in this list</strong>
      <span>
        It forgets after a while how far a reader had got, and asking again from there never works.
        “Continue from the newest” reads the list again from its start, skips the{' '}
        {formatCount(list.items.length)} {noun} already loaded and carries on after the last of
        them.
      </span>
      <ReadOnButton list={list}>Continue from the newest</ReadOnButton>
    </div>
  );
}

/**
 * The service said the list ended, but on a full page: when it cannot reach the store of
 * its cursors it leaves the cursor out, so this may not be the end. Offers to look again.
 */
export function EndUnsureNotice({ noun, list }: RecoveryProps) {
  return (
    <div className={`${notice.notice} ${notice.compact}`} role="status">
      <span>
        The service reported no more {noun} after a full page. It does so too when it cannot reach
        its record of places in lists, so the list may go on.
      </span>
      <ReadOnButton list={list}>Check again</ReadOnButton>
    </div>
  );
}

/** Reads the list again from its head, past the loaded rows (useInfiniteList). */
function ReadOnButton({ list, children }: { list: InfiniteList<unknown>; children: ReactNode }) {
  return (
    <button
      type="button"
      className={button.button}
      onClick={list.continueFromNewest}
      disabled={list.isLoadingMore}
    >
      {children}
    </button>
  );
}
