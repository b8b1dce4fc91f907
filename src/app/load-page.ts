/** Remembered for the tab's session: the page was reloaded once to get new code. */
const RELOADED = 'page-code-reloaded';

/** A page's code could not be loaded: the connection is gone, or the server lost the files. */
export class PageCodeError extends Error {
  constructor(cause: unknown) {
    super('The page’s code could not be loaded.', { cause });
    this.name = 'PageCodeError';
  }
}

/**
 * Loads a lazy route's code. A failed load is tried once more (a passing fault); if that
 * fails too while the browser is online, the files were most likely renamed by a deploy
 * since this tab loaded the app, so the page is reloaded once to get the new names. The
 * tab's session remembers that reload, so one that does not help is not repeated; a load
 * that works forgets it, for the next deploy. Offline, or after that reload, the route's
 * error screen shows the failure.
 */
export async function loadPage<T>(load: () => Promise<T>): Promise<T> {
  try {
    const page = await load().catch(load);
    session((storage) => storage.removeItem(RELOADED));
    return page;
  } catch (error) {
    // Null only when the storage works and holds no reload: without it, never reload.
    if (navigator.onLine && session((storage) => storage.getItem(RELOADED)) === null) {
      session((storage) => storage.setItem(RELOADED, '1'));
      window.location.reload();
      // The page goes; nothing is shown meanwhile.
      return new Promise<never>(() => {});
    }
    throw new PageCodeError(error);
  }
}

/** sessionStorage, which may be missing or refuse (private modes, storage disabled). */
function session<T>(act: (storage: Storage) => T): T | undefined {
  try {
    return act(window.sessionStorage);
  } catch {
    return undefined;
  }
}
