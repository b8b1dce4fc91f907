import { useCallback, useState } from 'react';

/**
 * The operator's token, held for this tab alone (sessionStorage): never in the URL, gone
 * when the tab closes. A browser that refuses storage keeps it in memory for the page.
 */
const KEY = 'webhooks.token';

function stored(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function useWebhookToken(): [string | null, (token: string | null) => void] {
  const [token, setState] = useState(stored);
  const set = useCallback((next: string | null) => {
    try {
      if (next === null) sessionStorage.removeItem(KEY);
      else sessionStorage.setItem(KEY, next);
    } catch {
      // Storage refused: the token lives in this page's memory only.
    }
    setState(next);
  }, []);
  return [token, set];
}
