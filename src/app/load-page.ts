/** Remembered for the tab's session: the page was reloaded once to get new code. */
const RELOADED = 'page-code-reloaded';

/** A page's code could not be loaded: the connection is gone, or the server lost the files. */
export class PageCodeError extends Error {
  /** Reloading may help: the browser is online and this tab has not reloaded for it yet. */
  readonly reload: boolean;

  constructor(cause: unknown, reload: boolean) {
    super('The page’s code could not be loaded.', { cause });
    this.name = 'PageCodeError';
    this.reload = reload;
  }
}

/**
 * Loads a lazy route's code. A failed load is tried once more (a passing fault). If that
 * fails too while the browser is online, the files were most likely renamed by a deploy
 * since this tab loaded the app: the error says a reload may help, and the error screen
 * reloads the page once, at the address the reader was going to (the router only takes
 * it on after this). The tab's session remembers that reload, so one that does not help
 * is not repeated; a load that works forgets it, for the next deploy.
 */
export async function loadPage<T>(load: () => Promise<T>): Promise<T> {
  try {
    const page = await load().catch(load);
    session((storage) => storage.removeItem(RELOADED));
    return page;
  } catch (error) {
    // Null only when the storage works and holds no reload: without it, never reload.
    const reloaded = session((storage) => storage.getItem(RELOADED));
    throw new PageCodeError(error, navigator.onLine && reloaded === null);
  }
}

/** Reloads the page to get the new code's names, once for the tab's session. */
export function reloadForNewCode(): void {
  session((storage) => storage.setItem(RELOADED, '1'));
  window.location.reload();
}

/** sessionStorage, which may be missing or refuse (private modes, storage disabled). */
function session<T>(act: (storage: Storage) => T): T | undefined {
  try {
    return act(window.sessionStorage);
  } catch {
    return undefined;
  }
}
