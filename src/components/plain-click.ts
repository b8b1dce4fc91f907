import type { MouseEvent } from 'react';

/**
 * A left click without modifiers, on a link the app follows itself: a modified click (new
 * tab, new window, download) is left to the browser, as the router's `Link` does.
 */
export function isPlainClick(event: MouseEvent): boolean {
  return (
    event.button === 0 &&
    !event.defaultPrevented &&
    !event.metaKey &&
    !event.altKey &&
    !event.ctrlKey &&
    !event.shiftKey
  );
}
