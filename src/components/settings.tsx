import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { DEFAULT_IPFS_GATEWAY } from '../lib/image-url';

/** Preferences that persist in this browser (localStorage), not in shared URLs. */
export interface Settings {
  ipfsGateway: string;
  timeZone: 'utc' | 'local';
}

const DEFAULTS: Settings = { ipfsGateway: DEFAULT_IPFS_GATEWAY, timeZone: 'utc' };
const STORAGE_KEY = 'token-activity-settings';

interface SettingsContextValue extends Settings {
  update: (changes: Partial<Settings>) => void;
}

const SettingsContext = createContext<SettingsContextValue>({ ...DEFAULTS, update: () => {} });

function load(): Settings {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<Settings>;
    return {
      ipfsGateway:
        typeof stored.ipfsGateway === 'string' && /^https:\/\//.test(stored.ipfsGateway)
          ? stored.ipfsGateway
          : DEFAULTS.ipfsGateway,
      timeZone: stored.timeZone === 'local' ? 'local' : 'utc',
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
