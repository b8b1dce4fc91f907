import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { DEFAULT_EXPLORER_URL, parseExplorerUrl } from '../lib/explorer';

/** Preferences that persist in this browser (localStorage), not in shared URLs. */
export interface Settings {
  timeZone: 'utc' | 'local';
  /** Used when the URL does not choose (shared links carry `time=` when they do). */
  timeDisplay: 'relative' | 'absolute';
  /** Events per request; larger pages mean fewer requests for long histories. */
  pageSize: number;
  /** The Starknet explorer that transactions and addresses link to (see lib/explorer.ts). */
  explorerUrl: string;
  /** Light or dark, or the system's (public/theme.js applies it before the first paint). */
  theme: Theme;
  /** A collection's charts shown open above its events (folded, the first rows come first). */
  chartsOpen: boolean;
}

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export const PAGE_SIZES = [25, 50, 100, 250, 500, 1000] as const;

const DEFAULTS: Settings = {
  timeZone: 'utc',
  timeDisplay: 'relative',
  pageSize: 100,
  explorerUrl: DEFAULT_EXPLORER_URL,
  theme: 'system',
  chartsOpen: false,
};
const STORAGE_KEY = 'token-activity-settings';

interface SettingsContextValue extends Settings {
  update: (changes: Partial<Settings>) => void;
}

const SettingsContext = createContext<SettingsContextValue>({ ...DEFAULTS, update: () => {} });

function load(): Settings {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<Settings>;
    const explorer =
      typeof stored.explorerUrl === 'string' ? parseExplorerUrl(stored.explorerUrl) : null;
    return {
      timeZone: stored.timeZone === 'local' ? 'local' : 'utc',
      timeDisplay: stored.timeDisplay === 'absolute' ? 'absolute' : 'relative',
      pageSize: (PAGE_SIZES as readonly number[]).includes(stored.pageSize ?? 0)
        ? (stored.pageSize as number)
        : DEFAULTS.pageSize,
      explorerUrl: explorer?.ok ? explorer.value : DEFAULTS.explorerUrl,
      theme: THEMES.find((theme) => theme === stored.theme) ?? DEFAULTS.theme,
      chartsOpen: stored.chartsOpen === true,
    };
  } catch {
    return DEFAULTS;
  }
}

export function SettingsProvider({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState<Settings>(load);
  const update = useCallback((changes: Partial<Settings>) => {
    setSettings((old) => {
      const next = { ...old, ...changes };
      try {
        localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      } catch {
        // Private mode or full storage: the setting still applies for this visit.
      }
      return next;
    });
  }, []);
  const value = useMemo(() => ({ ...settings, update }), [settings, update]);
  return <SettingsContext.Provider value={value}>{children}</SettingsContext.Provider>;
}

export function useSettings(): SettingsContextValue {
  return useContext(SettingsContext);
}

/**
 * Puts a theme on the root element while the page that asks is shown: the layout the
 * reader's setting (the settings panel of every page with the app's header), an embedded page the one its link names (a page in another site's
 * frame follows that site, not the setting).
 */
export function useRootTheme(theme: Theme) {
  useEffect(() => applyTheme(theme), [theme]);
}

/** The theme on the root element, as public/theme.js sets it at load: none is the system's. */
function applyTheme(theme: Theme) {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}
