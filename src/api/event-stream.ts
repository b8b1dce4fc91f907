/** How long a stream the server refused or ended for good waits before it is opened again. */
const REOPEN_MS = 5_000;

/**
 * Keeps a server's stream (Server-Sent Events) open: the browser opens a dropped one again
 * by itself; one it gives up on (the server restarted, a 429) is opened again here, by
 * `open` (which names where to resume, and adds its listeners). Returns what closes it.
 */
export function keepStreamOpen(open: () => EventSource): () => void {
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const start = () => {
    const current = open();
    source = current;
    current.addEventListener('error', () => {
      if (current.readyState !== EventSource.CLOSED) return;
      timer = setTimeout(start, REOPEN_MS);
    });
  };
  start();
  return () => {
    clearTimeout(timer);
    source?.close();
  };
}
